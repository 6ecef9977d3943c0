"""The embedded broker never hands a worker a half-written message, and survives one left behind."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from queue import Empty

import pytest
from kombu import Connection

from newsdesk import broker


@pytest.fixture
def folders(tmp_path: Path) -> Path:
    (tmp_path / "queue").mkdir()
    return tmp_path


def channel(folders: Path) -> broker.Channel:
    options = {"data_folder_in": str(folders / "queue"), "data_folder_out": str(folders / "queue")}
    connection = Connection("filesystem://", transport_options=options)
    assert isinstance(connection.default_channel, broker.Channel)
    return connection.default_channel


def plant(folders: Path, name: str, content: bytes) -> None:
    (folders / "queue" / name).write_bytes(content)


def test_filesystem_urls_use_the_safe_transport(folders: Path) -> None:
    assert Connection("filesystem://").transport_cls == "filesystem"
    assert isinstance(channel(folders), broker.Channel)


def test_a_message_is_read_back_once(folders: Path) -> None:
    producer, consumer = channel(folders), channel(folders)
    producer._put("io", {"body": "안녕"})

    assert consumer._get("io") == {"body": "안녕"}
    with pytest.raises(Empty):
        consumer._get("io")


def test_a_message_being_written_is_invisible_to_readers(
    folders: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    producer, reader = channel(folders), channel(folders)
    seen_mid_write: list[str] = []
    real_fsync = os.fsync

    def look_while_writing(fd: int) -> None:
        seen_mid_write.extend(os.listdir(folders / "queue"))
        with pytest.raises(Empty):
            reader._get("io")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", look_while_writing)
    producer._put("io", {"body": "x"})

    assert len(seen_mid_write) == 1 and seen_mid_write[0].endswith(".part")
    assert reader._get("io") == {"body": "x"}


def test_an_empty_or_broken_message_is_set_aside_and_the_next_one_read(
    folders: Path, caplog: pytest.LogCaptureFixture
) -> None:
    consumer = channel(folders)
    plant(folders, "0_empty.io.msg", b"")
    plant(folders, "00_broken.io.msg", b'{"body": ')
    consumer._put("io", {"body": "good"})

    with caplog.at_level(logging.ERROR, logger="newsdesk.broker"):
        assert consumer._get("io") == {"body": "good"}

    assert sorted(p.name for p in (folders / "rejected").iterdir()) == ["00_broken.io.msg", "0_empty.io.msg"]
    assert caplog.text.count("unreadable") == 2
    assert not list((folders / "queue").iterdir())


def test_only_one_reader_claims_a_message(folders: Path) -> None:
    first, second = channel(folders), channel(folders)
    plant(folders, "1_x.llm.msg", b'{"body": 1}')
    path = folders / "queue" / "1_x.llm.msg"

    assert first._claim(path) is not None
    assert second._claim(path) is None


def test_other_queues_messages_are_left_alone(folders: Path) -> None:
    consumer = channel(folders)
    plant(folders, "1_x.llm.msg", b'{"body": 1}')

    with pytest.raises(Empty):
        consumer._get("io")
    assert consumer._size("llm") == 1
