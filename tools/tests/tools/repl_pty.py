#!/usr/bin/python3
"""repl_pty: drives `relax repl` through a pseudo-terminal, as a person at a terminal would,
and checks line editing, history (within and across sessions), Ctrl-R search, Tab
completion, Ctrl-C stopping an endless evaluation with the program kept, and Ctrl-D.
SPEC_NOTES: "Exit codes". Usage: repl_pty.py PATH/TO/relax"""
import os
import pty
import re
import select
import sys
import tempfile
import time

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")
LEFT, UP, CTRL_C, CTRL_D, CTRL_R, TAB = b"\x1b[D", b"\x1b[A", b"\x03", b"\x04", b"\x12", b"\t"

# Endless: a tail call of itself (constant depth); only the step budget, set out of reach,
# would end it.
SPIN = b"""@R.function
def main(n: R.Prim("int64")) -> R.Prim("int64"):
    return Module.main(n)

"""


class Session:
    def __init__(self, relax, home):
        env = dict(os.environ, HOME=home, TERM="xterm", NO_COLOR="1")
        env.pop("INPUTRC", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(relax, [relax, "repl"], env)
        self.seen = b""  # everything read, escapes removed
        self.mark = 0    # expect() searches after this

    def read_some(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            return False
        self.seen += ANSI.sub(b"", data)
        return bool(data)

    def expect(self, what, timeout=10.0):
        """Waits for `what` (bytes) after the last match; fails the test if it never comes."""
        end = time.time() + timeout
        while True:
            at = self.seen.find(what, self.mark)
            if at >= 0:
                self.mark = at + len(what)
                return
            if time.time() > end or not self.read_some(end - time.time()):
                if self.seen.find(what, self.mark) >= 0:
                    continue
                fail("expected %r; the session showed:\n%s" % (what, self.seen[self.mark:].decode(errors="replace")))

    def send(self, data):
        os.write(self.fd, data)

    def finish(self, timeout=10.0):
        end = time.time() + timeout
        while time.time() < end:
            self.read_some(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid != 0:
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        fail("the session did not end; it showed:\n%s" % self.seen[self.mark:].decode(errors="replace"))


def fail(msg):
    print("repl_pty: FAIL: " + msg)
    sys.exit(1)


def first_session(relax, home):
    s = Session(relax, home)
    s.expect(b"relax> ")
    # In-line editing: the cursor moved left before the last digit, a digit inserted there.
    s.send(b":fuel 19" + LEFT + b"2\r")
    s.expect(b"fuel 129")
    # History recall: Up brings the line back.
    s.send(UP + b"\r")
    s.expect(b"fuel 129")
    # Completion of a command (":dep" is only :depth) and of a name of the program.
    s.send(b":dep" + TAB + b"\r")
    s.expect(b"depth 10000")
    s.send(b"from tvm.script import relax as R\r")  # pasted imports are accepted
    s.send(SPIN.replace(b"\n", b"\r"))
    s.expect(b"defined main")
    s.send(b":sinfo ma" + TAB + b"\r")
    s.expect(b"main.n: R.Prim(\"int64\")")
    # Ctrl-C stops an endless run and returns to the prompt; the program is still there.
    s.send(b":fuel 9000000000000000000\r")
    s.expect(b"fuel 9000000000000000000")
    s.expect(b"relax> ")
    s.send(b":run main {prim: {dtype: int64, value: 1}}\r")
    time.sleep(1.0)
    s.send(CTRL_C)
    s.expect(b"runtime error [Interrupted]")
    s.expect(b"relax> ")
    s.send(b":print\r")
    s.expect(b"return cls.main(n)")
    # Keys typed before the line editor has the terminal would reach the terminal driver,
    # which takes Ctrl-R itself (reprint): wait for the prompt, and a moment after it.
    s.expect(b"relax> ")
    time.sleep(0.5)
    # Ctrl-R finds an earlier line by what it contains.
    s.send(CTRL_R + b"fuel 12")
    time.sleep(0.3)
    s.send(b"\r")
    s.expect(b"fuel 129")
    s.expect(b"relax> ")
    time.sleep(0.5)
    s.send(CTRL_D)
    code = s.finish()
    if code != 0:
        fail("Ctrl-D should leave with 0, got %d" % code)


def second_session(relax, home):
    # History across sessions: Up recalls the last line of the first session.
    s = Session(relax, home)
    s.expect(b"relax> ")
    s.send(UP + b"\r")
    s.expect(b"fuel 129")
    s.send(b":quit\r")
    if s.finish() != 0:
        fail(":quit should leave with 0")


def main():
    relax = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as home:
        first_session(relax, home)
        if not os.path.exists(os.path.join(home, ".relax_history")):
            fail("no history file in $HOME")
        second_session(relax, home)
    print("repl_pty: editing, history, Ctrl-R, completion, Ctrl-C and Ctrl-D passed")


main()
