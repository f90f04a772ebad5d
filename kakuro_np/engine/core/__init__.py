"""What every stage shares: kernel conventions (``jit``), the records (``state``), the
codes a kernel returns (``codes``), the strategy constants (``policy``), the queue of
entries (``workqueue``), and compiling ahead in helper processes (``ahead``)."""
