#!/bin/bash
# test: slow
# trace-kmem stat reads on a second thread and counts on the first (a
# compressed buffer: the second thread inflates its chunks ahead, and the
# first walks and counts them, reader/prefetch.c), or, when the process
# may run on one CPU only, reads and counts on one (cli/pipeline.c;
# $TRACE_KMEM_THREADS=1 or 2 decides instead).  Both
# give the same report, byte for byte (one thread run on one CPU, where
# the reader makes no thread either): every sample trace, with both
# readers, without filters and with each of --time (the middle half of
# the listing, read by tests/ref/listing.py), --cpu 0 and --pid (the
# counting loop's two instances), plot's timeline, a merged summary of
# two files, a damaged copy, a cut one and copies with damaged chunks
# (their stderr lines too).
# Under taskset -c 0 the choice is one thread: strace counts one clone
# less than with TRACE_KMEM_THREADS=2, and fewer than on every CPU with
# TRACE_KMEM_THREADS=1 (the reader makes no kallsyms thread on one CPU;
# SKIP without strace).  On every CPU, a sample (a little data) is read
# and counted on one thread too, and a file of 16 MB of pages on two.  The sanitizers run it too: counting where the
# records lie must read nothing of them after the reader moves on (on a
# quarter of the samples, with every crafted and damaged file: the code
# is the same on each sample, and make check compares them all).
set -u
. "$(dirname "$0")/../lib/common.sh"

TK=${TK:-$(dirname "$PLUGIN_DIR")/trace-kmem}
[ -x "$TK" ] || { fail threads "no $TK (run make)"; finish; }
export TRACE_KMEM_CONVERT=never
unset TRACE_KMEM_THREADS

# one CPU for the one-thread runs: the reader then makes no thread of its
# own either (kallsyms decompressed and resolved in one pass, in line)
one_cpu=()
command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null && one_cpu=(taskset -c 0)

# same NAME ARGS...: `trace-kmem ARGS` with one thread (on one CPU) and
# with two give the same exit status, stdout, stderr and -o/--json files;
# the files named in ARGS as @OUT@ and @JSON@ are made per run.
same() {
	local name=$1 n a args pre
	shift
	for n in 1 2; do
		args=()
		for a in "$@"; do
			a=${a//@OUT@/$WORK/$name.$n.out}
			args+=("${a//@JSON@/$WORK/$name.$n.json}")
		done
		pre=()
		[ $n = 1 ] && pre=("${one_cpu[@]}")
		TRACE_KMEM_THREADS=$n timeout 120 "${pre[@]}" "$TK" "${args[@]}" \
			>"$WORK/$name.$n.stdout" 2>"$WORK/$name.$n.stderr"
		echo $? >"$WORK/$name.$n.rc"
		# the reports name no run: the file names differ only here
		sed -i "s|$WORK/$name\.$n\.|OUT.|g" "$WORK/$name.$n.stdout" \
			"$WORK/$name.$n.stderr"
	done
	for a in rc stdout stderr out json; do
		[ -e "$WORK/$name.1.$a" ] || [ -e "$WORK/$name.2.$a" ] || continue
		if ! cmp -s "$WORK/$name.1.$a" "$WORK/$name.2.$a"; then
			fail "threads-$name" "$a differs between one thread and two:" \
				"$(diff "$WORK/$name.1.$a" "$WORK/$name.2.$a" 2>&1 | head -5)"
			return
		fi
	done
	pass "threads-$name"
}
# ran NAME RC [PATTERN]: the runs of same() exited RC, stderr matching
# PATTERN
ran() {
	local rc
	rc=$(cat "$WORK/$1.1.rc")
	if [ "$rc" != "$2" ] ||
		{ [ -n "${3:-}" ] && ! grep -q -- "$3" "$WORK/$1.1.stderr"; }; then
		fail "threads-$1-ran" "exit $rc, wanted $2${3:+ and '$3'}: $(head -2 "$WORK/$1.1.stderr")"
	else
		pass "threads-$1-ran"
	fi
}

# a window of a trace's middle half and its first task, from its listing
# (tests/ref/listing.py: trace-cmd 3.1's and 3.3's alike)
window() {
	trace-cmd report -i "$1" 2>/dev/null | python3 "$TOP/tests/ref/listing.py" tsv |
		awk -F'\t' '{ t = $4 + 0; if (!n++) { a = t; pid = $2 } b = t }
			END { printf "%.6f %.6f %s\n", a + (b - a) / 4, b - (b - a) / 4, pid }'
}

for f in $(san_samples 4); do
	b=$(basename "$f" .dat)
	read -r t0 t1 pid < <(window "$f")
	for r in native libtracecmd; do
		same "$b.$r" stat --reader=$r --slab --page -o @OUT@ --json=@JSON@ "$f"
		ran "$b.$r" 0
		same "$b.$r.window" stat --reader=$r --slab --page \
			--time "$t0,$t1" -o @OUT@ --json=@JSON@ "$f"
		ran "$b.$r.window" 0
		same "$b.$r.cpu" stat --reader=$r --slab --page --cpu 0 \
			-o @OUT@ --json=@JSON@ "$f"
		ran "$b.$r.cpu" 0
		same "$b.$r.pid" stat --reader=$r --slab --page --pid "${pid:-1}" \
			-o @OUT@ --json=@JSON@ "$f"
		ran "$b.$r.pid" 0
	done
	same "$b.plot" plot -o @OUT@ "$f"
	ran "$b.plot" 0
done

first=$(samples | head -n 1)
second=$(samples | sed -n 2p)
same merged stat --slab --page -o @OUT@ --json=@JSON@ "$first" "$second"

# damaged copies: a v6 copy with a page's commit word past the page, and
# a v7 copy cut in its data (tests/e2e/reader_damage.sh has the others)
v6=$WORK/v6.dat
if trace-cmd convert -i "$first" -o "$v6" --file-version 6 >/dev/null 2>&1 &&
	python3 "$TOP/tests/lib/tdat_layout.py" "$v6" >"$WORK/v6.json"; then
	off=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=[c for c in d['cpus'] if c['size'] and not c['buffer']][0]; print(c['offset'] + 8)" "$WORK/v6.json")
	cp "$v6" "$WORK/bad.dat"
	printf '\xff\xff\x00\x00' | dd of="$WORK/bad.dat" bs=1 seek="$off" conv=notrunc 2>/dev/null
	same damaged stat -o @OUT@ --json=@JSON@ "$WORK/bad.dat"
	ran damaged 0 "damaged data skipped: 1 ring-buffer page"
else
	fail threads-damaged "trace-cmd convert or tdat_layout.py failed"
fi
# cut in the middle of the last CPU's chunks: its whole chunks are read
if python3 "$TOP/tests/lib/tdat_layout.py" "$first" >"$WORK/v7.json"; then
	at=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cpus'][-1]['chunks']; print(c[len(c) // 2]['at'] + 10)" "$WORK/v7.json")
	head -c "$at" "$first" >"$WORK/cut.dat"
	same cut stat -o @OUT@ --json=@JSON@ "$WORK/cut.dat"
	ran cut 0 "file cut at"
else
	fail threads-cut "tdat_layout.py failed on $first"
fi

# damaged compressed chunks: on two CPUs the reader inflates them ahead
# on a thread of its own (reader/prefetch.c), on one it inflates them in
# line; the records and the damage said must not differ.  Each copy of
# the first sample damages the middle chunk of each CPU's table: data
# that does not inflate, a size of 0, a size past the limit (the CPU's
# end), a compressed size past the table (the same), a size of 30 MB
# (read: the data still inflates; the buffers ahead would pass the
# prefetcher's budget, so it makes none), and random bytes.
chunk_damage() { # chunk_damage KIND SEED OUT
	python3 - "$WORK/v7.json" "$first" "$@" <<'PY'
import json, random, struct, sys
lay, src, kind, seed, out = sys.argv[1:]
d = json.load(open(lay))
data = bytearray(open(src, 'rb').read())
rnd = random.Random(int(seed) if seed.isdigit() else 0)
fmt = '>I' if d['big'] else '<I'
for c in d['cpus']:
    ch = c.get('chunks') or []
    if not ch:
        continue
    k = ch[len(ch) // 2]
    at, z = k['at'], k['zsize']
    if kind == 'corrupt':
        data[at + 8 + z // 2:at + 8 + z // 2 + 16] = b'\xff' * 16
    elif kind == 'size0':
        data[at + 4:at + 8] = struct.pack(fmt, 0)
    elif kind == 'huge':
        data[at + 4:at + 8] = struct.pack(fmt, 0xffffffff)
    elif kind == 'zsize':
        data[at:at + 4] = struct.pack(fmt, 0x7fffffff)
    elif kind == 'big':
        data[at + 4:at + 8] = struct.pack(fmt, 30 << 20)
    else:
        for _ in range(6):
            e = rnd.choice(ch)
            p = rnd.randrange(e['at'], e['at'] + 8 + e['zsize'])
            data[p] = rnd.randrange(256)
open(out, 'wb').write(data)
PY
}
if [ -s "$WORK/v7.json" ]; then
	for kind in corrupt size0 huge zsize big random:1 random:2 random:3 random:4 random:5; do
		name=chunks-${kind/:/-}
		chunk_damage "${kind%%:*}" "${kind#*:}" "$WORK/$name.dat" 2>"$WORK/$name.py" ||
			{ fail "threads-$name" "could not damage a copy: $(head -2 "$WORK/$name.py")"; continue; }
		same "$name" stat --slab --page -o @OUT@ --json=@JSON@ "$WORK/$name.dat"
		case $kind in
		corrupt | size0 | huge | zsize) ran "$name" 0 "damaged data skipped" ;;
		big) ran "$name" 0 ;;
		esac
	done
fi

# many CPUs: 32, each with chunks of 4 and 5 pages (the prefetcher's
# queue of CPUs with room, served in turn), one thread against two; by
# hand: 600 kmallocs a CPU over 300 addresses, none freed (the kfrees
# name others): 19,200 hits, 9,600 live
python3 - >"$WORK/many.spec" <<'PY'
print('[kallsyms]\nffffffff81300000 T seq_open\nffffffff81400000 T _etext\n[buffer]')
t = 1.0
for i in range(1200):
    for c in range(32):
        t += 0.000001
        ptr = 0xffff888100000000 + (c << 20) + (i % 600) * 64
        if i % 2:
            print('%d %.6f kfree call_site=0xffffffff81300020 ptr=%#x' % (c, t, ptr))
        else:
            print('%d %.6f kmalloc call_site=0xffffffff81300010 ptr=%#x '
                  'bytes_req=%d bytes_alloc=64 node=-1' % (c, t, ptr, 8 + c))
PY
if python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/many.spec" -o "$WORK/many32.dat" \
	--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 7 \
	--compression zstd --chunk-pages 5 2>"$WORK/many.err"; then
	same many32 stat --slab -o @OUT@ --json=@JSON@ "$WORK/many32.dat"
	ran many32 0
	if grep -q '^ *1,228,800/64 *| *451,200/23 *| 19,200 |.*| 9,600/614,400 |' "$WORK/many32.2.out"; then
		pass threads-many32-numbers
	else
		fail threads-many32-numbers "want 19,200 hits, 9,600 live: $(grep -m1 seq_open "$WORK/many32.2.out")"
	fi
else
	fail threads-many32 "tdat_writer.py failed: $(tail -n 2 "$WORK/many.err")"
fi

# the choice: one thread on one CPU
clones() { # clones [ENV...] [-- CMD...]: the clones of one run (under CMD)
	local e=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	rm -f "$WORK/st"
	env "${e[@]}" "$@" strace -f -qq -e trace=clone,clone3 -o "$WORK/st" \
		"$TK" stat -o /dev/null "${cfile:-$first}" >/dev/null 2>&1
	grep -c 'clone' "$WORK/st"
}
# kmalloc_spec N: a tdat_writer.py spec of N kmalloc records on two CPUs
kmalloc_spec() {
	python3 - "$1" <<'PY'
import sys
print('[kallsyms]\nffffffff81300000 T seq_open\nffffffff81400000 T _etext\n[buffer]')
for i in range(int(sys.argv[1])):
    print('%d %.6f kmalloc call_site=0xffffffff81300010 ptr=%#x '
          'bytes_req=8 bytes_alloc=8 node=-1' % (i % 2, 1 + i * 1e-6, 0xffff888100000000 + i * 8))
PY
}
if ! command -v strace >/dev/null || ! command -v taskset >/dev/null; then
	skip threads-one-cpu "no strace or taskset (apt-get install strace util-linux)"
elif ! strace -f -qq -o /dev/null true 2>/dev/null; then
	skip threads-one-cpu "strace cannot trace here (ptrace refused)"
else
	auto=$(clones -- taskset -c 0) one=$(clones TRACE_KMEM_THREADS=1 -- taskset -c 0)
	two=$(clones TRACE_KMEM_THREADS=2 -- taskset -c 0)
	if [ "$auto" = "$one" ] && [ "$two" = $((one + 1)) ]; then
		pass threads-one-cpu
	else
		fail threads-one-cpu "clones under taskset -c 0: $auto by itself," \
			"$one with TRACE_KMEM_THREADS=1, $two with 2 (want $one, $one, $((one + 1)))"
	fi
	# the reader's kallsyms threads (a compressed section, a long text):
	# made on two CPUs, not on one
	free=$(clones TRACE_KMEM_THREADS=1)
	if [ "$(nproc)" -lt 2 ]; then
		skip threads-one-cpu-reader "this process may run on one CPU only"
	elif [ "$free" -gt "$one" ]; then
		pass threads-one-cpu-reader
	else
		fail threads-one-cpu-reader "clones with TRACE_KMEM_THREADS=1: $free on every CPU," \
			"$one under taskset -c 0 (want fewer there)"
	fi
	# on every CPU, by the data's size (cli/pipeline.c:
	# tk_pipeline_small()): 300 records (v7 zstd), well under 2 MB
	# compressed or 16 MB of pages, on one thread; 4,200 pages of one
	# record each (v6), on two.  Not a sample: the threads of its long
	# kallsyms vary with the time its decompression takes (a pass that
	# follows it to the end needs no second half); here one makes it.
	kmalloc_spec 300 >"$WORK/small.spec"
	if python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/small.spec" -o "$WORK/small.dat" \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 7 \
		--compression zstd 2>"$WORK/small.err"; then
		cfile=$WORK/small.dat
		auto=$(clones) one=$(clones TRACE_KMEM_THREADS=1) two=$(clones TRACE_KMEM_THREADS=2)
		cfile=
		if [ "$(nproc)" -lt 2 ]; then
			skip threads-small "this process may run on one CPU only"
		elif [ "$auto" = "$one" ] && [ "$two" = $((one + 1)) ]; then
			pass threads-small
		else
			fail threads-small "clones on every CPU: $auto by itself, $one with" \
				"TRACE_KMEM_THREADS=1, $two with 2 (want $one, $one, $((one + 1)))"
		fi
	else
		fail threads-small "tdat_writer.py failed: $(tail -n 2 "$WORK/small.err")"
	fi
	kmalloc_spec 4200 >"$WORK/big.spec"
	if python3 "$TOP/tests/tdat/tdat_writer.py" --spec "$WORK/big.spec" -o "$WORK/big.dat" \
		--formats "$TOP/tests/formats/linux-6.18-x86_64.txt" --version 6 \
		--page-fill 64 2>"$WORK/big.err"; then
		cfile=$WORK/big.dat
		auto=$(clones) one=$(clones TRACE_KMEM_THREADS=1) two=$(clones TRACE_KMEM_THREADS=2)
		cfile=
		if [ "$(nproc)" -lt 2 ]; then
			skip threads-big "this process may run on one CPU only"
		elif [ "$(stat -c %s "$WORK/big.dat")" -gt $((16 << 20)) ] &&
			[ "$auto" = "$two" ] && [ "$two" = $((one + 1)) ]; then
			pass threads-big
		else
			fail threads-big "clones on $(stat -c %s "$WORK/big.dat") bytes: $auto by" \
				"itself, $one with TRACE_KMEM_THREADS=1, $two with 2 (want $two, $((two - 1)), $two)"
		fi
	else
		fail threads-big "tdat_writer.py failed: $(tail -n 2 "$WORK/big.err")"
	fi
fi
finish
