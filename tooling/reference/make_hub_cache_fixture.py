"""Writes a Hugging Face cache exactly as Python's huggingface_hub lays it out, for attnkit's tests of
models loaded by id:

    .venv-ref/bin/python tooling/reference/make_hub_cache_fixture.py

A local stand-in for the Hub (resolve URLs, X-Repo-Commit / ETag headers, a 302 to a CDN path with
X-Linked-Etag / X-Linked-Size for files over 1 KiB, as the Hub answers) serves the sentence-transformers
folder fixtures/sentence/bert-mean-normalize as the repository `acme/st-bert`; huggingface_hub's own
hf_hub_download fetches every file into fixtures/hub-cache/ (blobs, snapshots/<commit>/ links, refs/main).
Then SentenceTransformer('acme/st-bert') is loaded from that cache with HF_HUB_OFFLINE=1 and its
embeddings of a few texts (float64 model) are written to fixtures/hub-cache.json with the commit.

With an argument, checks a cache another program made instead (what attnkit downloads must be a valid
entry for Python): `make_hub_cache_fixture.py --check CACHE_DIR` prints scan_cache_dir's report as JSON
(repos, revisions, files, warnings) and loads `acme/st-bert` from it offline.
"""
import hashlib
import http.server
import json
import os
import shutil
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "fixtures"
SOURCE = ROOT / "sentence" / "bert-mean-normalize"
OUT = ROOT / "hub-cache"
REPO = "acme/st-bert"
COMMIT = hashlib.sha1(REPO.encode()).hexdigest()
TEXTS = ["Hello world", "The cat sat on the mat.", "A man is playing a guitar."]


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    files = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    blobs = {hashlib.sha256(b).hexdigest(): b for b in files.values()}

    class Hub(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def answer(self, body: bool):
            path = self.path.split("?")[0]
            if path.startswith("/cdn/"):
                data = blobs.get(path[5:])
                return self.send(200, {}, data, body) if data is not None else self.send(404, {}, b"", body)
            prefix = f"/{REPO}/resolve/"
            if not path.startswith(prefix):
                return self.send(401, {"X-Error-Code": "RepoNotFound"}, b"", body)
            revision, _, name = path[len(prefix):].partition("/")
            if revision not in ("main", COMMIT):
                return self.send(404, {"X-Error-Code": "RevisionNotFound"}, b"", body)
            data = files.get(name)
            if data is None:
                return self.send(404, {"X-Error-Code": "EntryNotFound", "X-Repo-Commit": COMMIT}, b"", body)
            if len(data) > 1024:
                digest = hashlib.sha256(data).hexdigest()
                return self.send(302, {"Location": f"http://localhost:{self.server.server_address[1]}/cdn/{digest}", "X-Repo-Commit": COMMIT, "X-Linked-Etag": f'"{digest}"', "X-Linked-Size": str(len(data)), "ETag": f'"{hashlib.sha1(data).hexdigest()}"'}, b"", body)
            return self.send(200, {"X-Repo-Commit": COMMIT, "ETag": f'"{hashlib.sha1(data).hexdigest()}"'}, data, body)

        def send(self, status, headers, data, body):
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)

        def do_HEAD(self):
            self.answer(False)

        def do_GET(self):
            self.answer(True)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def embeddings(cache: Path) -> list:
    os.environ["HF_HUB_OFFLINE"] = "1"
    import huggingface_hub.constants
    huggingface_hub.constants.HF_HUB_OFFLINE = True  # read at import: set it for this process too
    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer(REPO, cache_folder=str(cache), device="cpu").double()
    return model.encode(TEXTS, convert_to_numpy=True).tolist()


def check(cache: Path) -> None:
    from huggingface_hub import scan_cache_dir
    report = scan_cache_dir(cache)
    out = {
        "repos": [{"repo_id": r.repo_id, "size_on_disk": r.size_on_disk, "refs": sorted(r.refs), "revisions": [{"commit": v.commit_hash, "files": sorted(str(f.file_path.relative_to(v.snapshot_path)) for f in v.files)} for v in r.revisions]} for r in report.repos],
        "warnings": [str(w) for w in report.warnings],
    }
    out["embeddings"] = embeddings(cache)
    print(json.dumps(out, indent=1))


def main() -> None:
    if sys.argv[1:2] == ["--check"]:
        return check(Path(sys.argv[2]))
    shutil.rmtree(OUT, ignore_errors=True)
    server, endpoint = serve(SOURCE)
    from huggingface_hub import hf_hub_download
    for path in sorted(SOURCE.rglob("*")):
        if path.is_file():
            hf_hub_download(REPO, str(path.relative_to(SOURCE)), cache_dir=OUT, endpoint=endpoint)
    server.shutdown()
    shutil.rmtree(OUT / ".locks", ignore_errors=True)  # empty lock files
    (ROOT / "hub-cache.json").write_text(json.dumps({"cache": "hub-cache", "id": REPO, "commit": COMMIT, "texts": TEXTS, "embeddings": embeddings(OUT)}) + "\n")
    print(f"wrote {OUT} and hub-cache.json")


if __name__ == "__main__":
    main()
