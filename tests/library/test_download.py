"""fanyi.library.download against a local server: resume, mirrors, timeouts, hostile servers, cancel, TLS."""

from __future__ import annotations

import datetime
import errno
import hashlib
import ipaddress
import os
import ssl
import sys
from collections import namedtuple

import pytest
from packserver import CancelAfter, PackServer, Route, closed_port_url

from fanyi.cancel import Cancelled
from fanyi.library import download
from fanyi.library.download import Timeouts
from fanyi.library.errors import DiskSpaceError, DownloadError

BODY = os.urandom(700_000)  # ~11 chunks
SHA = hashlib.sha256(BODY).hexdigest()
# A test that stalls a server gives the client STALLS, so that the stall is left in seconds; every other test the
# real timeouts: a timeout a busy machine can trip (half a second between two reads) must not decide a test whose
# server is sending
STALLS = Timeouts(connect=5, read=2)


def get(urls, dest, **kwargs):
    kwargs.setdefault("retry_delay", 0)
    return download.download(urls, dest, sha256=kwargs.pop("sha256", SHA), size=kwargs.pop("size", len(BODY)), **kwargs)


def part_of(dest):
    return dest.with_name(dest.name + ".part")


def test_a_download_is_verified_and_renamed_into_place(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY)
    reports = []
    dest = get([server.url("/f.zip")], tmp_path / "f.zip", progress=reports.append)
    assert dest.read_bytes() == BODY and not part_of(dest).exists()
    assert reports[0].done == 0 and reports[-1].done == reports[-1].total == len(BODY)
    assert all(r.phase == "downloading" and r.bytes_per_second >= 0 for r in reports)
    assert [d for d in (r.done for r in reports)] == sorted(r.done for r in reports)
    # a second call finds the finished file and asks the server nothing
    server.requests.clear()
    assert get([server.url("/f.zip")], tmp_path / "f.zip") == dest and server.requests == []


def test_a_wrong_checksum_deletes_the_file_and_says_so(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY)
    with pytest.raises(DownloadError, match="sha256 does not match the catalog's; it was deleted"):
        get([server.url("/f.zip")], tmp_path / "f.zip", sha256="0" * 64)
    assert list(tmp_path.iterdir()) == []


def test_a_dropped_connection_resumes_from_the_byte_it_reached(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY, drop_after=300_000)
    dest = tmp_path / "f.zip"
    with pytest.raises(DownloadError, match="connection"):
        get([server.url("/f.zip")], dest, retries=0)
    assert part_of(dest).stat().st_size == 300_000 and not dest.exists()
    # a later attempt (a new process would do the same: the state is the .part file alone)
    get([server.url("/f.zip")], dest)
    assert dest.read_bytes() == BODY
    assert server.ranges("/f.zip") == [None, "bytes=300000-"]


def test_a_dropped_connection_is_retried_with_range_within_one_call(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY, drop_after=123_456)
    assert get([server.url("/f.zip")], tmp_path / "f.zip").read_bytes() == BODY
    assert server.ranges("/f.zip") == [None, "bytes=123456-"]


def test_a_stalled_transfer_times_out_and_resumes(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY, stall_after=200_000)
    assert get([server.url("/f.zip")], tmp_path / "f.zip", timeouts=STALLS).read_bytes() == BODY
    assert server.ranges("/f.zip") == [None, "bytes=200000-"]  # nothing received before the stall is lost


@pytest.mark.parametrize(
    "first",
    [Route(b"", status=404), Route(b"", status=403), Route(b"", status=503), Route(BODY, stall_before_headers=True)],
    ids=["404", "403", "503", "timeout"],
)
def test_a_failing_mirror_falls_back_to_the_next(server, tmp_path, first):
    server.routes["/a/f.zip"] = first
    server.routes["/b/f.zip"] = Route(BODY)
    got = get([server.url("/a/f.zip"), server.url("/b/f.zip")], tmp_path / "f.zip", timeouts=STALLS)
    assert got.read_bytes() == BODY
    assert [p for p, _r in server.requests] == ["/a/f.zip", "/b/f.zip"]


def test_every_url_failing_is_one_line_naming_each(server, tmp_path):
    server.routes["/a/f.zip"] = Route(b"", status=404)
    with pytest.raises(DownloadError) as failure:
        get([server.url("/a/f.zip"), closed_port_url("/b/f.zip")], tmp_path / "f.zip")
    message = str(failure.value)
    assert "\n" not in message and message.startswith("cannot download f.zip: ")
    assert "HTTP 404" in message and "refused" in message and not failure.value.unreachable


def test_no_network_at_all_is_one_clear_line(tmp_path):
    with pytest.raises(DownloadError) as failure:
        get([closed_port_url("/f.zip")], tmp_path / "f.zip")
    assert failure.value.unreachable and "\n" not in str(failure.value)
    assert "download servers cannot be reached" in str(failure.value)
    assert "connection or the proxy settings, or import a pack" in str(failure.value)
    assert list(tmp_path.iterdir()) == []


def test_cancel_keeps_the_partial_file_and_the_next_call_resumes(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY)
    dest = tmp_path / "f.zip"
    with pytest.raises(Cancelled):
        get([server.url("/f.zip")], dest, cancel=CancelAfter(4))
    have = part_of(dest).stat().st_size
    assert 0 < have < len(BODY) and not dest.exists()
    assert get([server.url("/f.zip")], dest).read_bytes() == BODY
    assert server.ranges("/f.zip") == [None, f"bytes={have}-"]


def test_a_server_ignoring_range_starts_the_file_over(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY, ignore_range=True)
    dest = tmp_path / "f.zip"
    part_of(dest).write_bytes(b"stale bytes of something else")
    assert get([server.url("/f.zip")], dest).read_bytes() == BODY
    assert server.ranges("/f.zip") == ["bytes=29-"]


def test_a_wrong_content_range_is_refused(server, tmp_path):
    server.routes["/f.zip"] = Route(BODY + b"!")  # its ranges say 700001 bytes in all
    dest = tmp_path / "f.zip"
    part_of(dest).write_bytes(BODY[:1000])
    with pytest.raises(DownloadError, match="answers a resume request with a different range"):
        get([server.url("/f.zip")], dest)
    assert part_of(dest).read_bytes() == BODY[:1000]  # still good for a server that answers right


def test_a_server_sending_more_than_the_catalog_size_is_refused(server, tmp_path):
    server.routes["/forever.zip"] = Route(BODY, forever=True)  # no length, then junk without end
    server.routes["/long.zip"] = Route(BODY + b"x" * 10)  # says its (wrong) length up front
    dest = tmp_path / "f.zip"
    with pytest.raises(DownloadError) as failure:
        get([server.url("/forever.zip"), server.url("/long.zip")], dest)
    assert f"sends more than the {len(BODY)} bytes the catalog lists" in str(failure.value)
    assert f"sends {len(BODY) + 10} bytes, the catalog lists {len(BODY)}" in str(failure.value)
    assert list(tmp_path.iterdir()) == []


def test_not_enough_disk_space_is_said_before_anything_is_fetched(server, tmp_path, monkeypatch):
    server.routes["/f.zip"] = Route(BODY)
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr("shutil.disk_usage", lambda _p: Usage(10**9, 10**9 - 1000, 1000))
    with pytest.raises(DiskSpaceError, match=r"not enough disk space on .*: need 683\.6 KB, have 1000 B"):
        get([server.url("/f.zip")], tmp_path / "f.zip")
    assert server.requests == []


def test_a_disk_filling_up_during_the_download_is_said_in_words(server, tmp_path, monkeypatch):
    server.routes["/f.zip"] = Route(BODY)
    write = download._Partial.write

    def full(self, chunk):
        if self.done >= 2 * download.CHUNK:
            raise OSError(errno.ENOSPC, "No space left on device")
        write(self, chunk)

    monkeypatch.setattr(download._Partial, "write", full)
    with pytest.raises(DiskSpaceError, match="not enough disk space on"):
        get([server.url("/f.zip")], tmp_path / "f.zip")
    assert 2 * download.CHUNK <= part_of(tmp_path / "f.zip").stat().st_size < len(BODY)  # kept to resume


def test_fetch_bytes_reads_a_small_document_and_bounds_it(server):
    server.routes["/c.json"] = Route(b'{"a": 1}')
    assert download.fetch_bytes(server.url("/c.json"), 100, timeout=5) == b'{"a": 1}'
    with pytest.raises(DownloadError, match="sends more than 4 bytes"):
        download.fetch_bytes(server.url("/c.json"), 4, timeout=5)
    with pytest.raises(DownloadError, match="HTTP 404"):
        download.fetch_bytes(server.url("/missing.json"), 100, timeout=5)


# --- TLS: the system trust store decides ------------------------------------------------------------
def _certificates(tmp_path):
    """A CA and a certificate for 127.0.0.1 signed by it, as PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Fanyi test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(2)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(pem))
    (tmp_path / "server.pem").write_bytes(
        cert.public_bytes(pem) + key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return tmp_path / "ca.pem", tmp_path / "server.pem"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the trust store is the system's own elsewhere")
def test_https_is_verified_by_the_system_trust_store(tmp_path, monkeypatch):
    ca, server_pem = _certificates(tmp_path)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(server_pem)
    with PackServer(tls=tls) as server:
        server.routes["/f.zip"] = Route(BODY)
        with pytest.raises(DownloadError, match="certificate is not trusted"):
            get([server.url("/f.zip")], tmp_path / "untrusted.zip")
        # the CA becomes trusted the way a system's store is configured on Linux (OpenSSL's SSL_CERT_FILE)
        monkeypatch.setenv("SSL_CERT_FILE", str(ca))
        assert get([server.url("/f.zip")], tmp_path / "f.zip").read_bytes() == BODY
