#!/bin/sh
# make demo: the real trace-cmd report -O kmem:stat on a bundled sample
# trace, with the plugin just built.  The per-event listing is long, so
# it goes to a file; the tables come to the terminal.
set -e
plugin_dir=$(dirname "$1")
trace=${DEMO_TRACE:-$(ls -S -r sample-data/*.dat | head -n 1)}
# one user's file: another's (root's) in /tmp is not writable
listing=$(mktemp "${TMPDIR:-/tmp}/kmem-demo-listing.XXXXXX")
echo "\$ TRACEEVENT_PLUGIN_DIR=$plugin_dir trace-cmd report -i $trace -O kmem:stat -O kmem:lines=10"
TRACEEVENT_PLUGIN_DIR=$plugin_dir trace-cmd report -i "$trace" \
	-O kmem:stat -O kmem:lines=10 -O kmem:output=/dev/fd/3 3>&1 \
	>"$listing"
echo
echo "(the $(wc -l <"$listing") lines of the event listing are in $listing)"
