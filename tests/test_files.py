"""kakuro_np.files: files written whole or not at all, and output paths checked unopened."""

import errno
import os
import socket
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from kakuro_np import files
from kakuro_np.errors import PuzzleError
from kakuro_np.files import output_path, why, write_atomic


def mode_of(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- write_atomic -----------------------------------------------------------------


def test_a_new_file_holds_the_text_and_gets_mode_0644_whatever_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "k.txt", "x ; 3 0\n")
    finally:
        os.umask(old)
    assert (tmp_path / "k.txt").read_text(encoding="utf-8") == "x ; 3 0\n"
    assert mode_of(tmp_path / "k.txt") == 0o644
    assert os.listdir(tmp_path) == ["k.txt"]


def test_a_replaced_file_keeps_its_mode_and_loses_its_old_text(tmp_path):
    path = tmp_path / "k.txt"
    path.write_text("old text, longer than the new one\n")
    os.chmod(path, 0o600)
    write_atomic(str(path), "new\n")
    assert path.read_text() == "new\n" and mode_of(path) == 0o600
    assert os.listdir(tmp_path) == ["k.txt"]


def test_the_text_is_written_as_utf8_unchanged(tmp_path):
    text = "┌───┐ 数独 \u202e\n\r\n"
    write_atomic(tmp_path / "k.txt", text)
    assert (tmp_path / "k.txt").read_bytes() == text.encode("utf-8")


def test_a_relative_path_is_written_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_atomic("here.txt", "x\n")
    assert (tmp_path / "here.txt").read_text() == "x\n"
    assert os.listdir(tmp_path) == ["here.txt"]


def test_text_that_cannot_be_encoded_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "k.txt"
    path.write_text("old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "half \ud800 written")     # a lone surrogate: no UTF-8 for it
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["k.txt"]


def test_an_interrupted_replace_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "k.txt"
    path.write_text("old\n")

    def interrupted(src, dst):
        assert open(src, encoding="utf-8").read() == "new\n"   # written whole, beside it
        assert os.path.dirname(src) == str(tmp_path)
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, "new\n")
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["k.txt"]


def test_a_missing_folder_is_an_os_error_and_nothing_is_made(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "no" / "k.txt", "x\n")
    assert os.listdir(tmp_path) == []


@settings(max_examples=examples(30))
@given(st.text(st.characters(blacklist_categories=["Cs"]), max_size=200))
def test_what_is_written_is_read_back_exactly(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("atomic")
    write_atomic(folder / "k.txt", text)
    assert (folder / "k.txt").read_bytes() == text.encode("utf-8")
    assert os.listdir(folder) == ["k.txt"]


# -- why -----------------------------------------------------------------------------


@pytest.mark.parametrize("error, said", [
    (OSError(errno.ENOSPC, "No space left on device"), "no space left on device"),
    (OSError(errno.EDQUOT, "Disk quota exceeded"),
     "no space left on device (disk quota exceeded)"),
    (OSError(errno.EACCES, "Permission denied"), "Permission denied"),
    (PermissionError(errno.EACCES, "Permission denied", "k.txt"), "Permission denied"),
    (OSError("a message of its own"), "a message of its own"),
    (FileNotFoundError(), "FileNotFoundError"),
    (OSError(), "OSError"),
])
def test_why_tells_a_full_disk_apart_and_gives_the_systems_words_otherwise(error, said):
    assert why(error) == said


def test_no_space_holds_the_full_disk_and_the_quota():
    assert set(files.NO_SPACE) == {errno.ENOSPC, errno.EDQUOT}


# -- output_path ------------------------------------------------------------------------


def test_a_regular_file_a_missing_one_and_the_null_device(tmp_path):
    (tmp_path / "k.txt").write_text("x\n")
    assert output_path(tmp_path / "k.txt") == "file"
    assert output_path(str(tmp_path / "new.txt")) == "new"
    assert output_path(os.devnull) == "null"


def test_a_path_that_cannot_be_told_is_new_for_the_open_to_refuse(tmp_path):
    (tmp_path / "k.txt").write_text("x\n")
    assert output_path(tmp_path / "k.txt" / "under-a-file") == "new"
    assert output_path(tmp_path / "no" / "such" / "folder") == "new"


def test_a_link_is_told_by_what_it_points_to(tmp_path):
    (tmp_path / "k.txt").write_text("x\n")
    os.symlink(tmp_path / "k.txt", tmp_path / "to-file")
    os.symlink(tmp_path / "gone", tmp_path / "dangling")
    os.symlink(tmp_path, tmp_path / "to-folder")
    assert output_path(tmp_path / "to-file") == "file"
    assert output_path(tmp_path / "dangling") == "new"
    with pytest.raises(PuzzleError, match="is a directory"):
        output_path(tmp_path / "to-folder")


def test_a_directory_is_refused_naming_it_with_the_hint(tmp_path):
    with pytest.raises(PuzzleError) as info:
        output_path(tmp_path, "; name a file")
    assert str(info.value) == f"{tmp_path}: is a directory, not a regular file; name a file"
    assert info.value.source == str(tmp_path)


def test_a_fifo_is_refused_without_being_opened(tmp_path):
    """Opening a FIFO with no reader would block: that the call returns shows it was not."""
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(PuzzleError) as info:
        output_path(tmp_path / "fifo")
    assert str(info.value) == f"{tmp_path / 'fifo'}: is a pipe (FIFO), not a regular file"


def test_a_socket_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                  # a short relative name: sockets' paths are short
    with socket.socket(socket.AF_UNIX) as s:
        s.bind("sock")
        with pytest.raises(PuzzleError) as info:
            output_path("sock")
    assert str(info.value) == "sock: is a socket, not a regular file"


def test_a_device_other_than_null_is_refused():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    with pytest.raises(PuzzleError) as info:
        output_path("/dev/zero", " (hint)")
    assert str(info.value) == "/dev/zero: is a device, not a regular file (hint)"
