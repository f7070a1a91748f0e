# Sourced by the identity tests: the option sets every sample trace is
# reported with, NAME[=VALUE] words of lib/'s option table, one set a
# line.  Needs $WORK/topo.txt for the numa set (trace-kmem topology).
# shellcheck shell=bash
# shellcheck disable=SC2034
optsets=(
	""
	"slab caller sort=hit lines=5"
	"alloc sort=ptr,bytes lines=0"
	"cache raw-ip"
	"page live sort=order,hit"
	"page per-process merge-pids"
	"per-process lines=3"
	"page skip=^(__alloc|alloc_pages|get_page_from) sort=migtype,gfp,page json-rows=all"
	"numa=$WORK/topo.txt sort=frag,pingpong,live,peak"
)
