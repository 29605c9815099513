# The persistent Python interpreter run inside the sandbox (`python3 -u -c <this>`). It speaks JSON lines:
# requests on stdin ({op: exec|interrupt}), events on the original stdout ({ev: ready|out|done}).
# User code gets fd 1/2 redirected into a pipe, so prints, C extensions and subprocesses are all captured in order.

import ast, base64, io, json, linecache, os, queue, signal, sys, threading, traceback, codecs, warnings

# a cell's output beyond HEAD_CAP characters is not streamed; its last TAIL_CAP characters are kept for the done event
HEAD_CAP = int(os.environ.get('MANUS_OUTPUT_CAP', '2000000'))
TAIL_CAP = HEAD_CAP // 4
MPL_CACHE_SEED = '/opt/manus/matplotlib'
WORKSPACE = os.environ.get('MANUS_WORKSPACE') or os.getcwd()
SENTINEL = os.urandom(16).hex().encode()

# our own process group: killing it (timeout, cancel) takes every child the user's code started
try:
    os.setsid()
except OSError:
    pass

proto_out = os.fdopen(os.dup(1), 'wb', buffering=0)
proto_in = os.fdopen(os.dup(0), 'rb')
proto_lock = threading.Lock()

def send(message):
    line = (json.dumps(message) + '\n').encode()
    with proto_lock:
        proto_out.write(line)

null_fd = os.open(os.devnull, os.O_RDONLY)
os.dup2(null_fd, 0)
capture_r, capture_w = os.pipe()

def text_stream(fd):
    return io.TextIOWrapper(os.fdopen(fd, 'wb', buffering=0, closefd=False), encoding='utf-8', errors='replace', write_through=True)

user_stdout, user_stderr = text_stream(1), text_stream(2)

def restore_streams():
    # user code may close or redirect fd 1/2 or sys.stdout/err; each cell starts and ends with them pointing at the capture
    os.dup2(capture_w, 1)
    os.dup2(capture_w, 2)
    sys.stdout, sys.stderr = user_stdout, user_stderr

restore_streams()
sys.stdin = open(os.devnull, 'r')
os.umask(0o022)

def seed_matplotlib_cache():
    # the image ships a built font cache; copying it saves seconds on the first plot of each container
    if 'MPLCONFIGDIR' in os.environ or not os.path.isdir(MPL_CACHE_SEED):
        return
    target = os.path.join(os.path.expanduser('~'), '.cache', 'matplotlib')
    if os.path.exists(target):
        return
    try:
        os.makedirs(target)
        for name in os.listdir(MPL_CACHE_SEED):
            if name.endswith('.json'):
                with open(os.path.join(MPL_CACHE_SEED, name), 'rb') as source, open(os.path.join(target, name), 'wb') as copy:
                    copy.write(source.read())
    except OSError:
        pass

seed_matplotlib_cache()
warnings.filterwarnings('ignore', message='.*non-GUI backend.*')
warnings.filterwarnings('ignore', message='.*FigureCanvasAgg is non-interactive.*')

state = {'cell': None, 'sent': 0, 'dropped': 0, 'tail': '', 'busy': False}
drained = threading.Event()

def forward(raw, decoder):
    text = decoder.decode(raw)
    if not text:
        return
    room = HEAD_CAP - state['sent']
    if room > 0:
        head = text[:room]
        state['sent'] += len(head)
        send({'ev': 'out', 'id': state['cell'], 'data': head})
        text = text[room:]
    if text:
        tail = state['tail'] + text
        state['dropped'] += max(0, len(tail) - TAIL_CAP)
        state['tail'] = tail[-TAIL_CAP:]

def pending_sentinel_length(buffer):
    # only a tail that could be the start of the sentinel waits for the next read
    for size in range(min(len(buffer), len(SENTINEL) - 1), 0, -1):
        if SENTINEL.startswith(buffer[-size:]):
            return size
    return 0

def read_capture():
    decoder = codecs.getincrementaldecoder('utf-8')('replace')
    carry = b''
    while True:
        chunk = os.read(capture_r, 65536)
        if not chunk:
            return
        carry += chunk
        while True:
            at = carry.find(SENTINEL)
            if at < 0:
                break
            forward(carry[:at], decoder)
            carry = carry[at + len(SENTINEL):]
            drained.set()
        keep = pending_sentinel_length(carry)
        forward(carry[:len(carry) - keep], decoder)
        carry = carry[len(carry) - keep:]

requests = queue.Queue()

def read_requests():
    for line in proto_in:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get('op') == 'interrupt':
            if state['busy']:
                os.kill(os.getpid(), signal.SIGINT)
        else:
            requests.put(message)
    # the host went away: finish what was queued unless a cell is stuck
    if state['busy']:
        os._exit(0)
    requests.put({'op': 'quit'})

namespace = {'__name__': '__main__', '__builtins__': __builtins__}
figure_counter = [0]

def next_figure_number(folder):
    if figure_counter[0] == 0 and os.path.isdir(folder):
        for name in os.listdir(folder):
            if name.startswith('figure-') and name.endswith('.png') and name[7:-4].isdigit():
                figure_counter[0] = max(figure_counter[0], int(name[7:-4]))
    figure_counter[0] += 1
    return figure_counter[0]

def collect_figures():
    pyplot = sys.modules.get('matplotlib.pyplot')
    if pyplot is None:
        return []
    images = []
    folder = os.path.join(WORKSPACE, 'figures')
    for number in pyplot.get_fignums():
        figure = pyplot.figure(number)
        buffer = io.BytesIO()
        figure.savefig(buffer, format='png', dpi=100, bbox_inches='tight')
        png = buffer.getvalue()
        path = None
        try:
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, 'figure-%d.png' % next_figure_number(folder))
            with open(path, 'wb') as handle:
                handle.write(png)
        except OSError as error:
            print('(figure not saved: %s)' % error, file=sys.stderr)
        images.append({'data': base64.b64encode(png).decode(), 'path': path})
    pyplot.close('all')
    return images

def show_traceback(error):
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != state['filename']:
        tb = tb.tb_next
    if isinstance(error, SyntaxError):
        tb = None
    sys.stderr.write(''.join(traceback.format_exception(type(error), error, tb)))

def run_cell(cell_id, code):
    filename = '<cell-%s>' % cell_id
    state['filename'] = filename
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    failed = False
    try:
        tree = ast.parse(code, filename, 'exec')
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, filename, 'exec'), namespace)
        if last is not None:
            value = eval(compile(last, filename, 'eval'), namespace)
            if value is not None:
                namespace['_'] = value
                print(repr(value))
    except BaseException as error:
        failed = True
        if isinstance(error, SystemExit):
            sys.stderr.write('SystemExit: %s (the interpreter keeps running)\n' % (error.code,))
        else:
            show_traceback(error)
    images = []
    try:
        images = collect_figures()
    except BaseException as error:
        sys.stderr.write('(could not render figures: %r)\n' % (error,))
    return failed, images

def main():
    threading.Thread(target=read_capture, daemon=True).start()
    threading.Thread(target=read_requests, daemon=True).start()
    send({'ev': 'ready', 'pid': os.getpid(), 'python': sys.version.split()[0]})
    while True:
        message = requests.get()
        if message.get('op') == 'quit':
            os._exit(0)
        if message.get('op') != 'exec':
            continue
        cell_id = message.get('id')
        state.update(cell=cell_id, sent=0, dropped=0, tail='', busy=True)
        try:
            failed, images = run_cell(cell_id, message.get('code', ''))
        except KeyboardInterrupt:
            failed, images = True, []
            sys.stderr.write('KeyboardInterrupt\n')
        state['busy'] = False
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        restore_streams()
        drained.clear()
        os.write(1, SENTINEL)
        drained.wait(5)
        send({'ev': 'done', 'id': cell_id, 'error': failed, 'dropped': state['dropped'], 'tail': state['tail'], 'images': images})

main()
