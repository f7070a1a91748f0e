"""A cache of the references' results, for the test suite.

The references (kmem_ref.py, kmem_page_ref.py, kmem_leaks_ref.py,
kmem_percpu_ref.py, kmem_vmalloc_ref.py) are pure functions of what
they are given: their own sources, their arguments, the content of the
files those name, trace-cmd and its libraries, and a few environment
variables.  The tests run the same reference on the same sample with
the same options many times over (numbers, plot, cli_filters, the
sanitized run of every test again), and each run converts the trace
and parses trace-cmd's listing anew.  With TRACE_KMEM_REFCACHE=DIR
(tests/run.sh sets it), a reference that ended with status 0 leaves its
output in DIR under a key made of all of the above, and the next run
with the same key prints it again without computing it.

Nothing else is cached: a failure, a run that writes a file (--save,
--make-edge-trace), a run with no TRACE_KMEM_REFCACHE.  A file named in
the arguments counts by its path and its content.  The test's
temporary directory (TRACE_KMEM_TEST_WORK, tests/lib/common.sh) is
taken out of the paths in the key and out of the stored output, and put
back on the way out: a crafted file made again in another run's
directory is found again.

  refcache.main(main, argv)   in place of sys.exit(main(argv))
"""

import glob
import hashlib
import json
import os
import shutil
import sys
import tempfile

WRITES = ("--save", "--make-edge-trace")
ENV = ("TRACE_CMD", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC")
LIBS = ("libtraceevent.so.1", "libtracecmd.so.1", "libtracefs.so.1")


def _stat(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [path, st.st_size, st.st_mtime_ns, st.st_ino]


def _file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def _tool_key():
    """trace-cmd and its libraries: by path, size, time and inode."""
    tc = shutil.which(os.environ.get("TRACE_CMD", "trace-cmd"))
    key = [_stat(os.path.realpath(tc)) if tc else None]
    for lib in LIBS:
        for p in sorted(glob.glob("/usr/lib/*/" + lib + "*") +
                        glob.glob("/usr/lib/" + lib + "*") +
                        glob.glob("/usr/local/lib/" + lib + "*")):
            key.append(_stat(os.path.realpath(p)))
    return key


def _sources_key():
    here = os.path.dirname(os.path.abspath(__file__))
    h = hashlib.sha256()
    for p in sorted(glob.glob(os.path.join(here, "*.py"))):
        h.update(os.path.basename(p).encode() + b"\0")
        with open(p, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    return h.hexdigest()


def _work_dirs():
    """The test's temporary directory as a path may show it: as given,
    its real path, relative to the current directory.  [] without one."""
    w = os.environ.get("TRACE_KMEM_TEST_WORK", "")
    if len(os.path.basename(w)) < 8:
        return []
    real = os.path.realpath(w)
    rel = os.path.relpath(real, os.path.realpath(os.getcwd()))
    return [w, real, rel if not rel.startswith("..") and rel != "." else w]


def _out(dirs, data, put):
    """Take the temporary directory out of @data (put=False) or put it
    back; the longest spelling first."""
    order = sorted(range(len(dirs)), key=lambda i: len(dirs[i]),
                   reverse=True)
    for i in order:
        mark, d = b"\0REFCACHE-WORK-%d\0" % i, os.fsencode(dirs[i])
        data = data.replace(mark, d) if put else data.replace(d, mark)
    return data


def _args_key(argv, dirs):
    """The arguments, each file named by them with its content, and the
    current directory, the temporary directory taken out."""
    def norm(s):
        return _out(dirs, os.fsencode(s), False).decode("utf-8",
                                                        "surrogateescape")
    args = []
    for a in argv:
        opt, eq, val = a.partition("=")
        if not eq:
            val = a
        digest = _file_digest(val) if val and os.path.isfile(val) else None
        args.append([norm(a), digest])
    # which spellings of the directory are the same: they decide which
    # one a stored output gets back
    same = [len(set(dirs[:i + 1])) for i in range(len(dirs))]
    return [os.path.basename(sys.argv[0]), norm(os.getcwd()), args, same]


def _run_captured(main, argv):
    """main(argv) with fds 1 and 2 going to files: (status, out, err)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    files = (tempfile.TemporaryFile(), tempfile.TemporaryFile())
    os.dup2(files[0].fileno(), 1)
    os.dup2(files[1].fileno(), 2)
    try:
        try:
            rc = main(argv)
        except SystemExit as e:
            rc = e.code
        if rc is None:
            rc = 0
        elif not isinstance(rc, int):
            sys.stderr.write("%s\n" % rc)
            rc = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
    res = []
    for f in files:
        f.seek(0)
        res.append(f.read())
        f.close()
    return rc, res[0], res[1]


def main(main_fn, argv):
    """Exit with main_fn(argv)'s status, through the cache when asked."""
    cache = os.environ.get("TRACE_KMEM_REFCACHE")
    if not cache or any(a.split("=", 1)[0] in WRITES for a in argv):
        sys.exit(main_fn(argv))
    try:
        dirs = _work_dirs()
        args = _args_key(argv, dirs)
        key = json.dumps([1, _sources_key(), _tool_key(), args,
                          [[k, os.environ.get(k)] for k in ENV]])
    except OSError:
        sys.exit(main_fn(argv))
    name = hashlib.sha256(key.encode()).hexdigest()
    path = os.path.join(cache, name[:2], name)
    try:
        with open(path, "rb") as f:
            stored = f.read()
        head, sep, rest = stored.partition(b"\n")
        meta = json.loads(head)
        if sep and meta["key"] == key and len(rest) == meta["out"] + meta["err"]:
            sys.stdout.buffer.write(_out(dirs, rest[:meta["out"]], True))
            sys.stderr.buffer.write(_out(dirs, rest[meta["out"]:], True))
            sys.exit(0)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    rc, out, err = _run_captured(main_fn, argv)
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err)
    if rc == 0:
        out, err = _out(dirs, out, False), _out(dirs, err, False)
        # the directory in a spelling not taken out: not stored
        if dirs and os.fsencode(os.path.basename(dirs[1])) in out + err:
            sys.exit(rc)
        head = json.dumps({"key": key, "out": len(out), "err": len(err)})
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
            with os.fdopen(fd, "wb") as f:
                f.write(head.encode() + b"\n" + out + err)
            os.replace(tmp, path)
        except OSError:
            pass
    sys.exit(rc)
