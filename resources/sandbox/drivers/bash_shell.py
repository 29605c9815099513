# Supervisor of the persistent shell (`python3 -u -c <this>`). It runs an interactive bash whose prompt hook writes
# "<exit code> <command id>" to a private fd, so each command's end and status are framed out of band, never by
# scraping output. JSON lines in on stdin ({op: run|input|interrupt}), out on stdout ({ev: ready|out|done|exit}).

import codecs, fcntl, json, os, select, signal, subprocess, sys, threading

MARK_FD = 63
INPUT_FD = 62
proto_out = os.fdopen(os.dup(1), 'wb', buffering=0)
proto_lock = threading.Lock()

def send(message):
    line = (json.dumps(message) + '\n').encode()
    with proto_lock:
        proto_out.write(line)

def ansi_c_quote(text):
    parts = []
    for char in text:
        code = ord(char)
        if char == '\\':
            parts.append('\\\\')
        elif char == "'":
            parts.append("\\'")
        elif code < 32 or code == 127:
            parts.append('\\x%02x' % code)
        else:
            parts.append(char)
    return "$'" + ''.join(parts) + "'"

mark_r, mark_w = os.pipe()
os.dup2(mark_w, MARK_FD)
os.close(mark_w)
# commands read their stdin from a pipe of their own, so typed input never mixes with the command stream
input_r, input_w = os.pipe()
os.dup2(input_r, INPUT_FD)
os.close(input_r)
shell = subprocess.Popen(
    ['bash', '--noprofile', '--norc', '--noediting', '-i'],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    pass_fds=(MARK_FD, INPUT_FD), start_new_session=True, bufsize=0,
)
os.close(MARK_FD)
os.close(INPUT_FD)

def write_shell(data):
    try:
        shell.stdin.write(data)
        shell.stdin.flush()
    except (BrokenPipeError, OSError):
        pass

SETUP = (
    "PS1=''; PS2=''; set +H; set +o history; unset HISTFILE; umask 022; "
    + "PROMPT_COMMAND='__manus_rc=$?; printf \"%s %s\\n\" \"$__manus_rc\" \"${__manus_id:-0}\" >&" + str(MARK_FD) + "'\n"
)
write_shell(SETUP.encode())

def read_requests():
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        op = message.get('op')
        if op == 'run':
            quoted = ansi_c_quote(message.get('command', ''))
            command = '__manus_id=%d; eval %s <&%d\n' % (int(message['id']), quoted, INPUT_FD)
            write_shell(command.encode())
        elif op == 'input':
            try:
                os.write(input_w, message.get('data', '').encode())
            except OSError:
                pass
        elif op == 'interrupt':
            try:
                os.killpg(shell.pid, signal.SIGINT)
            except ProcessLookupError:
                pass
    # the host went away: take the shell and its foreground children with us
    try:
        os.killpg(shell.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os._exit(0)

def main():
    threading.Thread(target=read_requests, daemon=True).start()
    out_fd = shell.stdout.fileno()
    fcntl.fcntl(out_fd, fcntl.F_SETFL, fcntl.fcntl(out_fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    decoder = codecs.getincrementaldecoder('utf-8')('replace')
    ready = False
    marks = b''
    def drain():
        while True:
            try:
                chunk = os.read(out_fd, 65536)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            text = decoder.decode(chunk)
            if ready and text:
                send({'ev': 'out', 'data': text})
    open_fds = [out_fd, mark_r]
    while open_fds:
        readable, _, _ = select.select(open_fds, [], [])
        if mark_r in readable:
            chunk = os.read(mark_r, 4096)
            if not chunk:
                open_fds.remove(mark_r)
            marks += chunk
            while b'\n' in marks:
                line, marks = marks.split(b'\n', 1)
                drain()
                fields = line.decode(errors='replace').split()
                if len(fields) != 2:
                    continue
                if not ready:
                    ready = True
                    send({'ev': 'ready', 'pid': shell.pid})
                else:
                    send({'ev': 'done', 'id': int(fields[1]), 'code': int(fields[0])})
        if out_fd in readable:
            if not drain():
                open_fds.remove(out_fd)
                break
    code = shell.wait()
    send({'ev': 'exit', 'code': code})
    os._exit(code if code >= 0 else 128 - code)

main()
