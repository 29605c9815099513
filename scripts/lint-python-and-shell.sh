#!/usr/bin/env bash
# The part of `npm run lint` that is not TypeScript: the sandbox's Python drivers (compiled by python3 for syntax, then
# pyflakes for undefined names and unused imports) and the repository's shell scripts (shellcheck).
set -euo pipefail
cd "$(dirname "$0")/.."

require() {
  command -v "$1" >/dev/null || {
    echo "npm run lint needs $1 (Debian/Ubuntu: apt-get install $2; elsewhere: $3)" >&2
    exit 1
  }
}
require python3 python3 'install Python 3'
require shellcheck shellcheck 'brew install shellcheck'
# Debian names it pyflakes3; pip's pyflakes installs `pyflakes`
pyflakes=$(command -v pyflakes3 || command -v pyflakes || true)
[ -n "$pyflakes" ] || require pyflakes3 pyflakes3 'pip install pyflakes'

drivers=(resources/sandbox/drivers/*.py)
# compile() in memory, as `python3 -c` will (py_compile would leave __pycache__ folders in resources/)
python3 -c 'import sys
failed = False
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as source:
        try:
            compile(source.read(), path, "exec")
        except SyntaxError as error:
            print("%s:%s: %s" % (path, error.lineno, error.msg), file=sys.stderr)
            failed = True
sys.exit(1 if failed else 0)' "${drivers[@]}"
"$pyflakes" "${drivers[@]}"

shellcheck .ci/run scripts/*.sh scripts/sandbox/*.sh resources/sandbox/*.sh
