# Measures /workspace from inside the sandbox, as the sandbox's own user (`python3 -u -c <this>`), so a link swapped in
# mid-walk can only ever point it at what that user sees. It stays running: each line on stdin asks for one
# measurement, answered by a line {"bytes": N}: the blocks of every entry (links never followed, hard links once), plus
# files deleted while still open, which keep their space until closed. The line `open` asks for those open files only
# (the host walks a bind-mounted workspace itself); `apparent` counts a file at its size when that is more than its
# blocks (a copied workspace: a sparse file reaches the host at its full size).

import json, os, stat, sys

# the container's env (sandboxEnv) names /workspace; a test on the host names a folder of its own
ROOT = os.environ.get('MANUS_WORKSPACE') or '/workspace'
me = os.geteuid()

def listing(folder):
    try:
        return list(os.scandir(folder))
    except PermissionError:
        pass
    except OSError:
        return []
    # a folder of its own the sandbox made unreadable would hide what is written in it: its owner may read it again
    try:
        info = os.lstat(folder)
        if info.st_uid != me or not stat.S_ISDIR(info.st_mode):
            return []
        os.chmod(folder, stat.S_IMODE(info.st_mode) | 0o500)
        return list(os.scandir(folder))
    except OSError:
        return []

def measure(request):
    seen = set()
    total = 0
    apparent = request == 'apparent'

    def count(info, held=False):
        nonlocal total
        if info.st_nlink != 1:
            key = (info.st_dev, info.st_ino)
            if key in seen:
                return
            seen.add(key)
        blocks = info.st_blocks * 512
        # a deleted file never reaches the host: only its blocks count
        total += max(blocks, info.st_size) if apparent and not held and stat.S_ISREG(info.st_mode) else blocks

    root = os.lstat(ROOT)
    pending = []
    if request != 'open':
        count(root)
        pending.append(ROOT)
    while pending:
        for entry in listing(pending.pop()):
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_dev != root.st_dev:
                continue
            count(info)
            if stat.S_ISDIR(info.st_mode):
                pending.append(entry.path)

    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        fds = '/proc/%s/fd' % pid
        try:
            names = os.listdir(fds)
        except OSError:
            continue
        for name in names:
            try:
                info = os.stat(os.path.join(fds, name))
            except OSError:
                continue
            if info.st_nlink == 0 and info.st_dev == root.st_dev and stat.S_ISREG(info.st_mode):
                count(info, held=True)
    return total

for line in sys.stdin:
    try:
        answer = {'bytes': measure(line.strip())}
    except OSError as error:
        answer = {'error': str(error)}
    sys.stdout.write(json.dumps(answer) + '\n')
    sys.stdout.flush()
