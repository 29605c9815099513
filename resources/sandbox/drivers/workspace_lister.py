# Lister of the sandbox's workspace (`python3 -u -c <this>`), kept running so that a listing costs one round trip on
# the attached stream, not a new exec. Each line in on stdin asks for one listing (the line is the most entries
# wanted); one JSON line out answers it: {"entries": [[kind, size, mtime in ms, permission bits, path]...],
# "complete": bool}, kind d|f|l|s, links never followed.

import json, os, stat, sys

# the container's env (sandboxEnv) names /workspace; a test on the host names a folder of its own
ROOT = os.environ.get('MANUS_WORKSPACE') or '/workspace'
# paths can be long: the answer stays under this many bytes of names whatever their count
MAX_NAME_BYTES = 64 * 1024 * 1024

def listing(limit):
    entries = []
    name_bytes = 0
    pending = ['']
    while pending:
        if len(entries) >= limit or name_bytes > MAX_NAME_BYTES:
            return entries[:limit], False
        folder = pending.pop()
        try:
            scan = os.scandir(os.path.join(ROOT, folder) if folder else ROOT)
        except OSError:
            continue
        with scan:
            for entry in scan:
                path = folder + '/' + entry.name if folder else entry.name
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                mode = info.st_mode
                kind = 'd' if stat.S_ISDIR(mode) else 'f' if stat.S_ISREG(mode) else 'l' if stat.S_ISLNK(mode) else 's'
                entries.append([kind, info.st_size, info.st_mtime_ns // 1000000, stat.S_IMODE(mode), path])
                name_bytes += len(path)
                if kind == 'd':
                    pending.append(path)
    if len(entries) > limit:
        return entries[:limit], False
    return entries, True

for request in sys.stdin:
    entries, complete = listing(int(request))
    sys.stdout.write(json.dumps({'entries': entries, 'complete': complete}, ensure_ascii=True) + '\n')
    sys.stdout.flush()
