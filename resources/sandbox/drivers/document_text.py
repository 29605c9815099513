# Supervisor of the document reader (`python3 -u -c <this>`), kept running in a reader container that has no network.
# Each line on stdin is one document: {"id", "name", "data": base64, "pages": [from, to] | null, "limits": {...}}.
# The document is written to /tmp, and the extractor (document_extract.py) reads it
# in a child process of its own session with a memory, CPU-time and file-size limit and a wall-clock timeout; one
# answer line per document: {"id", "ok": true, "format", "units", "passages", "notes"} or {"id", "ok": false, "reason"}.
# The extractor's source is this program's first argument (`python3 -u -c <this> <extractor>`).

import base64, json, os, re, resource, signal, subprocess, sys, tempfile

EXTRACTOR = sys.argv[1]
WORK = tempfile.mkdtemp(prefix="manus-doc-", dir="/tmp")
DEFAULT_LIMITS = {"timeoutSeconds": 60, "memoryMb": 1024, "outputMb": 64}


def limited(memory_mb, cpu_seconds):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 1024 * 1024,) * 2)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        # OCR pages and the answer are the only files it writes
        resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024 * 1024,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def read_one(request):
    limits = dict(DEFAULT_LIMITS, **(request.get("limits") or {}))
    # some readers go by the name's extension (openpyxl): the document keeps it, and nothing else of its name
    extension = os.path.splitext(request["name"])[1].lower()
    document = os.path.join(WORK, "document" + (extension if re.fullmatch(r"\.[a-z0-9]{1,8}", extension) else ""))
    answer_path = os.path.join(WORK, "answer.json")
    request_path = os.path.join(WORK, "request.json")
    with open(document, "wb") as handle:
        handle.write(base64.b64decode(request["data"]))
    with open(request_path, "w", encoding="utf-8") as handle:
        json.dump({"path": document, "name": request["name"], "pages": request.get("pages")}, handle)
    timeout = limits["timeoutSeconds"]
    with open(answer_path, "wb") as answer, tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(
            [sys.executable, "-c", EXTRACTOR, request_path],
            stdin=subprocess.DEVNULL, stdout=answer, stderr=errors, cwd=WORK, start_new_session=True,
            preexec_fn=limited(limits["memoryMb"], timeout),
        )
        try:
            code = child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            return {"ok": False, "reason": "reading it took longer than %d s" % timeout}
        finally:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        errors.seek(0)
        complaint = errors.read(4000).decode("utf-8", "replace").strip()
    if code == 3:
        return {"ok": False, "reason": complaint.splitlines()[-1] if complaint else "unreadable"}
    if code != 0:
        if "ModuleNotFoundError" in complaint or "No such file or directory: 'pdftoppm'" in complaint:
            return {"ok": False, "reason": "the sandbox image has no document tools: rebuild it (manus sandbox build)"}
        if code in (-signal.SIGKILL, -signal.SIGXCPU) or "MemoryError" in complaint:
            return {"ok": False, "reason": "reading it needed more memory or time than a document may use"}
        last = complaint.splitlines()[-1] if complaint else "exit code %d" % code
        return {"ok": False, "reason": "the reader failed (%s)" % last[:300]}
    if os.path.getsize(answer_path) > limits["outputMb"] * 1024 * 1024:
        return {"ok": False, "reason": "its text is larger than %d MB" % limits["outputMb"]}
    with open(answer_path, "r", encoding="utf-8") as handle:
        result = json.load(handle)
    result["ok"] = True
    return result


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        identifier = None
        try:
            request = json.loads(line)
            identifier = request.get("id")
            answer = read_one(request)
        except Exception as error:
            answer = {"ok": False, "reason": "the reader failed (%s)" % str(error)[:300]}
        finally:
            for name in os.listdir(WORK):
                try:
                    os.unlink(os.path.join(WORK, name))
                except OSError:
                    pass
        answer["id"] = identifier
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


main()
