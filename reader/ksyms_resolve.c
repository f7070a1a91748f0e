// SPDX-License-Identifier: LGPL-2.1
/*
 * The addresses a report names, resolved in one pass over the kallsyms
 * text (tdat_want_symbols()), with the answers the index would give;
 * and the resolver libtraceevent calls (ksyms_resolve()).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

static size_t name_len(const char *name, const char *eol)
{
	const char *p = name;

	while (p < eol && !ks_space(*p))
		p++;
	return (size_t)(p - name);
}

/*
 * Resolving a sorted set of addresses in one pass, as the index would:
 * for each gap between two wanted addresses, the highest symbol in it
 * (the first line of that address: the index sorts the last line first
 * and answers an address between two symbols with the last of a run);
 * for each wanted address, the symbols exactly there (how many, the
 * first one's name) and how many symbols lie below it.
 */
/*
 * An address as the 16 lowercase hex digits of a kallsyms line, read
 * big-endian: keys compare as the addresses do, and a line's is two
 * loads, not a parse.
 */
struct ks_key {
	uint64_t hi, lo;
};

struct slot {
	uint64_t below; /* symbols in the gap below this address */
	uint64_t at;	/* symbols at it */
	uint64_t best;	/* the gap's highest symbol */
	struct ks_key best_key; /* the same */
	bool have_best;
	bool best_stale; /* best is still to be read from best_key */
	const char *best_name, *best_eol; /* its name, in the text or: */
	char *buf;			  /* a copy (the buffer is reused) */
	size_t buf_cap;
	char *at_name; /* the first symbol at the address */
	char *at_mod;  /* ... its module, or NULL */
};

struct pass {
	const uint64_t *want;
	size_t n;
	struct slot *slots; /* n + 1: the last gap is above the last */
	uint64_t total;	    /* symbols */
	uint64_t max;	    /* the highest */
	bool have_max;
	size_t last;	    /* the slot of the last symbol */
	bool oom;
	/* pass_line(): the gap of slot last, between keys no line has
	 * below the first and above the last */
	struct ks_key gap_lo, gap_hi;
};

static inline bool key_lt(struct ks_key a, struct ks_key b)
{
#ifdef __SIZEOF_INT128__
	return ((unsigned __int128)a.hi << 64 | a.lo) <
	       ((unsigned __int128)b.hi << 64 | b.lo);
#else
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
#endif
}

static inline uint64_t be_load(const char *s)
{
	uint64_t x;

	memcpy(&x, s, sizeof(x));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* Eight bytes of 0-9 and a-f only?  (SWAR, as ksyms_hex8() checks.) */
static inline bool lower_hex8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x80 * ones;
	uint64_t digit, alpha;

	if (x & high)
		return false;
	digit = (x + (0x80 - '0') * ones) & ~(x + (0x80 - '9' - 1) * ones);
	alpha = (x + (0x80 - 'a') * ones) & ~(x + (0x80 - 'f' - 1) * ones);
	return ((digit | alpha) & high) == high;
}

static struct ks_key key_of(uint64_t v)
{
	char d[16];
	struct ks_key k;
	int i;

	for (i = 15; i >= 0; i--, v >>= 4)
		d[i] = "0123456789abcdef"[v & 15];
	k.hi = be_load(d);
	k.lo = be_load(d + 8);
	return k;
}

static uint64_t key_value(struct ks_key k)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 16; i++) {
		unsigned int c =
			(unsigned int)((i < 8 ? k.hi >> (56 - 8 * i)
					      : k.lo >> (120 - 8 * i)) &
				       0xff);

		v = v << 4 | (c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return v;
}

/* pass_line() takes the lines of slot @i's gap from now on. */
static void set_gap(struct pass *ps, size_t i)
{
	static const struct ks_key none = { 0, 0 }, all = { ~0ULL, ~0ULL };

	ps->last = i;
	ps->gap_lo = i ? key_of(ps->want[i - 1]) : none;
	ps->gap_hi = i < ps->n ? key_of(ps->want[i]) : all;
}

static size_t lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The module of a kallsyms line's symbol, "[mod]" after the name, copied;
 * NULL for none.  Sets *@oom when the copy could not be made.
 */
static char *mod_dup(const char *name, const char *eol, bool *oom)
{
	const char *p = name + name_len(name, eol), *q;
	char *m;

	while (p < eol && ks_space(*p))
		p++;
	if (p == eol || *p != '[')
		return NULL;
	q = memchr(p, ']', (size_t)(eol - p));
	if (!q || q == p + 1)
		return NULL;
	m = strndup(p + 1, (size_t)(q - p - 1));
	*oom |= !m;
	return m;
}

static char *put_name(char **buf, size_t *cap, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		char *b = realloc(*buf, n + 1);

		if (!b)
			return NULL;
		*buf = b;
		*cap = n + 1;
	}
	memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return *buf;
}

static int pass_sym(void *priv, uint64_t addr, const char *name,
		    const char *eol, bool stable)
{
	struct pass *ps = priv;
	size_t i = ps->last;
	struct slot *sl;

	/* sorted text: most symbols fall where the last one did */
	if (!((i == ps->n || addr < ps->want[i]) &&
	      (!i || addr > ps->want[i - 1]))) {
		i = lower_bound(ps->want, ps->n, addr);
		set_gap(ps, i);
	}
	sl = &ps->slots[i];
	if (!ps->have_max || addr > ps->max)
		ps->max = addr;
	ps->have_max = true;
	ps->total++;
	if (i < ps->n && ps->want[i] == addr) {
		if (!sl->at++) {
			sl->at_name = strndup(name, name_len(name, eol));
			ps->oom |= !sl->at_name;
			sl->at_mod = mod_dup(name, eol, &ps->oom);
		}
		return ps->oom;
	}
	sl->below++;
	if (i < ps->n &&
	    (!sl->have_best || key_lt(sl->best_key, key_of(addr)))) {
		if (!stable) { /* the name and its module */
			size_t len = (size_t)(eol - name);

			name = put_name(&sl->buf, &sl->buf_cap, name, len);
			if (!name) {
				ps->oom = true;
				return 1;
			}
			eol = name + len;
		}
		sl->best_name = name;
		sl->best_eol = eol;
		sl->best = addr;
		sl->best_key = key_of(addr);
		sl->best_stale = false;
		sl->have_best = true;
	}
	return 0;
}

/*
 * The common line taken on its text, unparsed: "ADDR T NAME" with 16
 * lowercase hex digits, in the gap of the symbol before it, not A, a or
 * $ (those it skips, as one_line() does).  What pass_sym() would do with
 * it is done with keys; the addresses are read at the end
 * (pass_finish()).  Two thirds of the pass's instructions went to
 * parsing lines that only fall into the same gap.
 */
static bool pass_line(void *priv, const char *s, const char *eol)
{
	struct pass *ps = priv;
	struct slot *sl;
	struct ks_key k;

	/* above ' ': neither white space nor what ksyms_slow_line() takes */
	if (eol - s < 20 || s[16] != ' ' || s[18] != ' ' ||
	    (unsigned char)s[17] <= ' ' || (unsigned char)s[19] <= ' ')
		return false;
	k.hi = be_load(s);
	k.lo = be_load(s + 8);
	if (!lower_hex8(k.hi) || !lower_hex8(k.lo))
		return false;
	if (s[19] == '$' || s[17] == 'A' || s[17] == 'a')
		return true;
	if (!key_lt(ps->gap_lo, k) || !key_lt(k, ps->gap_hi))
		return false; /* another gap, or a wanted address */
	ps->total++;
	sl = &ps->slots[ps->last];
	sl->below++;
	/* above the last wanted address too: the highest symbol of all
	 * is one of the gaps' (pass_finish()); a line's key is above
	 * the zeroes of a slot with none */
	if (key_lt(sl->best_key, k)) {
		sl->best_name = s + 19;
		sl->best_eol = eol;
		sl->best_key = k;
		sl->best_stale = true;
		sl->have_best = true;
	}
	return true;
}

/* The addresses pass_line() kept as keys, read. */
static void pass_finish(struct pass *ps)
{
	size_t i;

	for (i = 0; i <= ps->n; i++) {
		struct slot *sl = &ps->slots[i];

		if (!sl->best_stale)
			continue;
		/* a symbol of pass_line()'s, the highest of its gap */
		sl->best = key_value(sl->best_key);
		sl->best_stale = false;
		if (!ps->have_max || sl->best > ps->max)
			ps->max = sl->best;
		ps->have_max = true;
	}
}

/*
 * Which of @run symbols at one address the index's bsearch() gives: the
 * index has @rank symbols below them and @total in all.  The real
 * bsearch() over a stand-in array, so that the answer is libc's.
 */
struct runpos {
	uint64_t rank, run;
};

static int run_cmp(const void *key, const void *elem)
{
	const struct runpos *r = key;
	uint64_t i = (uint64_t)((uintptr_t)elem - (uintptr_t)1);

	if (i < r->rank)
		return 1;
	return i < r->rank + r->run ? 0 : -1;
}

static uint64_t run_pick(uint64_t rank, uint64_t run, uint64_t total)
{
	struct runpos r = { rank, run };
	const char *e = bsearch(&r, (const void *)(uintptr_t)1, (size_t)total,
				1, run_cmp);

	/* the run is sorted last line first: its k-th is line run-1-k */
	return e ? run - 1 - ((uint64_t)((uintptr_t)e - 1) - rank) : 0;
}

/* The n-th symbol at one address (second pass, for duplicates). */
struct nth {
	uint64_t addr, n, seen;
	char *name, *mod;
	bool oom;
};

static int nth_sym(void *priv, uint64_t addr, const char *name, const char *eol,
		   bool stable)
{
	struct nth *t = priv;

	(void)stable;
	if (addr != t->addr || t->seen++ != t->n)
		return 0;
	t->name = strndup(name, name_len(name, eol));
	t->oom = !t->name;
	t->mod = mod_dup(name, eol, &t->oom);
	return 1;
}

static size_t res_pos(const struct tdat_kallsyms *k, uint64_t key)
{
	size_t lo = 0, hi = k->nres;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->res[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Insert @r into @k's sorted answers. */
static int add_result(struct tdat_kallsyms *k, const struct kres *r)
{
	size_t i;

	if (k->nres == k->capres) {
		size_t cap = k->capres ? 2 * k->capres : 64;
		struct kres *v = realloc(k->res, cap * sizeof(*v));

		if (!v)
			return -1;
		k->res = v;
		k->capres = cap;
	}
	i = res_pos(k, r->key);
	memmove(&k->res[i + 1], &k->res[i], (k->nres - i) * sizeof(*k->res));
	k->res[i] = *r;
	k->nres++;
	return 0;
}

/*
 * Answer the sorted, distinct addresses @want[@n], none answered yet,
 * in one pass over the text (and one more for each address that is
 * exactly where several symbols are, when the index would not give the
 * first of them).
 */
/*
 * A text in memory of at least this much is passed over in two halves,
 * on two threads (the one pass was a third of trace-kmem stat's fixed
 * cost on a small trace).
 */
#define KS_SPLIT (1U << 20)

/* The second half's pass, on a thread of its own. */
struct half {
	const struct tdat_kallsyms *k;
	size_t from, to;
	struct pass ps;
	bool ended;
	int ret;
};

static void *half_pass(void *arg)
{
	struct half *h = arg;

	tdat_thread_started();
	set_gap(&h->ps, 0);
	h->ret = ksyms_each_symbol_in(h->k, h->from, h->to, pass_line, pass_sym,
				      &h->ps, &h->ended);
	pass_finish(&h->ps);
	return NULL;
}

/* Free what a pass's slots hold. */
static void free_slots(struct slot *slots, size_t n)
{
	size_t i;

	for (i = 0; slots && i <= n; i++) {
		free(slots[i].buf);
		free(slots[i].at_name);
		free(slots[i].at_mod);
	}
	free(slots);
}

/*
 * The second half's findings added to the first's, as one pass over
 * both would have found them: counts add up, the first symbol at an
 * address is the first half's if it has one, a gap's highest symbol is
 * the second half's only if higher (the first line of a run wins).
 */
static void merge_half(struct pass *a, struct pass *b)
{
	size_t i;

	for (i = 0; i <= a->n; i++) {
		struct slot *x = &a->slots[i], *y = &b->slots[i];

		x->below += y->below;
		if (y->at && !x->at) {
			x->at_name = y->at_name;
			x->at_mod = y->at_mod;
			y->at_name = y->at_mod = NULL;
		}
		x->at += y->at;
		if (y->have_best && (!x->have_best || y->best > x->best)) {
			/* names of a text in memory stay in the text; one
			 * from a cut line is in y's buffer: take it */
			if (y->buf && y->best_name == y->buf) {
				free(x->buf);
				x->buf = y->buf;
				x->buf_cap = y->buf_cap;
				y->buf = NULL;
			}
			x->best = y->best;
			x->best_name = y->best_name;
			x->best_eol = y->best_eol;
			x->have_best = true;
		}
	}
	if (b->have_max && (!a->have_max || b->max > a->max))
		a->max = b->max;
	a->have_max |= b->have_max;
	a->total += b->total;
	a->oom |= b->oom;
}

/* The stretch [@from, end of text) in one go, the pass then finished. */
static int pass_stretch(const struct tdat_kallsyms *k, struct pass *ps,
			size_t from)
{
	bool ended;
	int ret;

	set_gap(ps, ps->last);
	ret = ksyms_each_symbol_in(k, from, k->srclen, pass_line, pass_sym, ps,
				   &ended);
	pass_finish(ps);
	return ret;
}

/*
 * The pass of resolve_set() over the text from @from (a line's start; 0
 * for the whole text): in two halves on two threads when the text is in
 * memory and long, the second half's findings dropped when the table
 * ends in the first.
 */
static int pass_all(const struct tdat_kallsyms *k, struct pass *ps, size_t from)
{
	struct half h = { .k = k };
	pthread_attr_t attr, *at;
	const uint8_t *nl;
	pthread_t t;
	bool ended;
	int ret, err;

	if (!from && (!ksyms_in_memory(k) || k->srclen < KS_SPLIT ||
		      tdat_usable_cpus() < 2))
		return ksyms_each_symbol(k, pass_sym, ps);
	if (k->srclen - from < KS_SPLIT || tdat_usable_cpus() < 2)
		return pass_stretch(k, ps, from);
	nl = memchr(k->src + from + (k->srclen - from) / 2, '\n',
		    k->srclen - from - (k->srclen - from) / 2);
	if (!nl)
		return pass_stretch(k, ps, from);
	h.from = (size_t)(nl + 1 - k->src);
	h.to = k->srclen;
	h.ps.want = ps->want;
	h.ps.n = ps->n;
	h.ps.slots = calloc(ps->n + 1, sizeof(*h.ps.slots));
	if (!h.ps.slots)
		return pass_stretch(k, ps, from);
	at = tdat_thread_attr(&attr);
	err = pthread_create(&t, at, half_pass, &h);
	if (at)
		pthread_attr_destroy(at);
	if (err) {
		free(h.ps.slots);
		return pass_stretch(k, ps, from);
	}
	set_gap(ps, ps->last);
	ret = ksyms_each_symbol_in(k, from, h.from, pass_line, pass_sym, ps,
				   &ended);
	pass_finish(ps);
	pthread_join(t, NULL);
	if (!ret && !ended) {
		ret = h.ret;
		merge_half(ps, &h.ps);
	}
	free_slots(h.ps.slots, ps->n);
	return ret;
}

/*
 * The pass while the thread still decompresses the text (a small trace
 * counted before it is done): the whole lines written so far, then those
 * that follow as they come, until the thread is done
 * (ksyms_inflate_wait()).  *@from is then where the rest starts; *@ended
 * is set when the text ended before.
 */
static int follow(struct tdat_kallsyms *k, struct pass *ps, size_t *from,
		  bool *ended)
{
	const uint8_t *text = k->hold + 4, *nl;
	size_t seen = 0, avail, end, to;
	uint64_t tsize;
	int ret = 0;

	set_gap(ps, ps->last);
	while (ksyms_inflate_wait(k, seen, &avail)) {
		seen = avail;
		if (avail < 4)
			continue;
		/* the text: its size word, then that many bytes at most */
		tsize = tdat_num(k->hold, 4, k->big);
		end = avail - 4 < tsize ? avail - 4 : (size_t)tsize;
		nl = end > *from ? memrchr(text + *from, '\n', end - *from)
				 : NULL;
		if (!nl)
			continue;
		to = (size_t)(nl + 1 - text);
		ret = ksyms_each_symbol_at(text, *from, to, pass_line, pass_sym,
					   ps, ended);
		*from = to;
		if (ret || *ended) {
			ksyms_inflate_leave(k);
			break;
		}
	}
	return ret;
}

/* A pass started again: nothing found yet. */
static int pass_reset(struct pass *ps)
{
	const uint64_t *want = ps->want;
	size_t n = ps->n;

	free_slots(ps->slots, n);
	memset(ps, 0, sizeof(*ps));
	ps->want = want;
	ps->n = n;
	ps->slots = calloc(n + 1, sizeof(*ps->slots));
	return ps->slots ? 0 : -1;
}

/*
 * resolve_set()'s pass over the whole text.  A compressed text still
 * being decompressed is followed (follow()); what it took stands when
 * the thread found the block whole in the steps it told, and the rest
 * is passed as usual.  Otherwise the pass starts again on the text the
 * thread left, as it would have without following it.
 */
static int pass_text(struct tdat_kallsyms *k, struct pass *ps)
{
	bool ended = false;
	size_t from = 0;
	int ret = 0;

	if (k->inflating)
		ret = follow(k, ps, &from, &ended);
	ksyms_join(k);
	if (!from && !ended && !ret)
		return pass_all(k, ps, 0);
	if (!k->stepped)
		return pass_reset(ps) ? -1 : pass_all(k, ps, 0);
	k->followed = from;
	if (ret || ended) {
		pass_finish(ps);
		return ret;
	}
	return pass_all(k, ps, from);
}

/* A copy of @m, or NULL for NULL; sets *@oom when it cannot be made. */
static char *mod_copy(const char *m, bool *oom)
{
	char *c = m ? strdup(m) : NULL;

	*oom |= m && !c;
	return c;
}

static int resolve_set(struct tdat_kallsyms *k, const uint64_t *want, size_t n)
{
	struct pass ps = { .want = want, .n = n };
	const char *below = NULL, *below_eol = NULL, *below_mod = NULL;
	bool below_at = false, oom = false;
	uint64_t below_addr = 0, rank = 0;
	int ret = -1;
	size_t i;

	ps.slots = calloc(n + 1, sizeof(*ps.slots));
	if (!ps.slots) {
		ksyms_join(k);
		return -1;
	}
	if (pass_text(k, &ps) || ps.oom)
		goto out;
	for (i = 0; i < n; i++) {
		struct slot *sl = &ps.slots[i];
		struct kres r = { .key = want[i] };

		rank += sl->below;
		if (sl->have_best) {
			below = sl->best_name;
			below_eol = sl->best_eol;
			below_addr = sl->best;
			below_at = false;
		}
		if (sl->at) {
			uint64_t nth = run_pick(rank, sl->at, ps.total);
			struct nth t = { .addr = want[i], .n = nth };

			r.start = want[i];
			if (!nth) {
				r.name = strdup(sl->at_name);
				r.mod = mod_copy(sl->at_mod, &oom);
			} else if (!ksyms_each_symbol(k, nth_sym, &t) &&
				   !t.oom) {
				r.name = t.name;
				r.mod = t.mod;
			} else {
				free(t.name);
				free(t.mod);
			}
			if (!r.name || oom) {
				free(r.name);
				free(r.mod);
				goto out;
			}
			/* above it, the first line at the address */
			below = sl->at_name;
			below_eol = below + strlen(below);
			below_mod = sl->at_mod;
			below_at = true;
			below_addr = want[i];
			rank += sl->at;
		} else if (below && ps.max > want[i]) {
			r.start = below_addr;
			r.name = strndup(below, name_len(below, below_eol));
			r.mod = below_at ? mod_copy(below_mod, &oom)
					 : mod_dup(below, below_eol, &oom);
			if (!r.name || oom) {
				free(r.name);
				free(r.mod);
				goto out;
			}
		}
		if (add_result(k, &r)) {
			free(r.name);
			free(r.mod);
			goto out;
		}
	}
	ret = 0;
out:
	free_slots(ps.slots, n);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Lookups of addresses nobody announced: the first few get a pass each
 * (memory stays small); more, or any before tdat_want_symbols(), and
 * the caller looks up as it goes (plot's stack frames): the
 * index is built then.
 */
#define KS_MISSES 8

/*
 * The format probes of a session's start (lib/fmtprobe.c) print every
 * field of a made-up record of zeros but the one probed, and read back
 * the probed "key=value": the function name libtraceevent prints for a
 * call site of 0 there is never read (kallsyms names hold no white
 * space, and every kernel's print fmt has "call_site=" before it).
 * Before any record is read and before tdat_want_symbols(), address 0
 * therefore gets no symbol and no pass of its own: it is resolved with
 * the others, once they are known.
 */
static bool probe_lookup(const struct tdat_kallsyms *k, uint64_t key)
{
	return !key && !k->wanted && !k->reading && !k->indexed;
}

/**
 * ksyms_resolve - the function resolver of the tep handle
 * @priv: the kallsyms section
 * @addrp: the address; set to its symbol's address when it has one
 * @modp: set to NULL (no module names)
 *
 * Addresses announced by tdat_want_symbols() are answered from what its
 * pass kept, the first few others with a pass each, the rest from the
 * full index (see KS_MISSES); a format probe's address 0 gets no symbol
 * (see probe_lookup()).
 *
 * Return: the symbol's name (the section keeps it), or NULL.
 */
char *ksyms_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct tdat_kallsyms *k = priv;
	uint64_t key = *addrp;
	char *name = NULL;
	size_t i = 0;

	if (modp)
		*modp = NULL;
	pthread_mutex_lock(&k->lock);
	if (probe_lookup(k, key)) {
		pthread_mutex_unlock(&k->lock);
		return NULL;
	}
	if (!k->indexed) {
		i = res_pos(k, key);
		if (i == k->nres || k->res[i].key != key) {
			k->misses++;
			if ((!k->wanted && k->misses > 1) ||
			    k->misses > KS_MISSES || resolve_set(k, &key, 1))
				ksyms_ensure_index(k);
			else
				i = res_pos(k, key);
		}
	}
	if (k->indexed) {
		name = ksyms_index_lookup(k, addrp);
	} else if (k->res[i].name) {
		name = k->res[i].name;
		*addrp = k->res[i].start;
	}
	pthread_mutex_unlock(&k->lock);
	return name;
}

/**
 * tdat_symbol_module - the module of an address's symbol
 * @f: the file
 * @addr: an address resolved before (tdat_want_symbols(), or looked up)
 *
 * The text after the name in the kallsyms line, "[mod]" for a module's
 * symbol.  No pass of its own: an address not resolved yet has none.
 *
 * Return: the module's name (the file keeps it until
 * tdat_kallsyms_release()), NULL for the kernel itself or no symbol.
 */
const char *tdat_symbol_module(struct tdat_file *f, uint64_t addr)
{
	struct tdat_kallsyms *k = f->ksyms;
	const char *mod = NULL;
	size_t i;

	if (!k)
		return NULL;
	pthread_mutex_lock(&k->lock);
	if (k->indexed) {
		mod = ksyms_index_module(k, addr);
	} else {
		i = res_pos(k, addr);
		if (i < k->nres && k->res[i].key == addr)
			mod = k->res[i].mod;
	}
	pthread_mutex_unlock(&k->lock);
	return mod;
}

/**
 * tdat_kallsyms_reading - records are being read
 * @f: the file
 *
 * Lookups from now on are the caller's own, not format probes: address
 * 0 resolves as any other (see probe_lookup()).
 */
void tdat_kallsyms_reading(struct tdat_file *f)
{
	struct tdat_kallsyms *k = f->ksyms;

	if (!k)
		return;
	pthread_mutex_lock(&k->lock);
	k->reading = true;
	pthread_mutex_unlock(&k->lock);
}

/* Lookups are known: the held text goes (unless the index uses it). */
static void unhold(struct tdat_kallsyms *k)
{
	if (!k->hold || k->indexed)
		return;
	ksyms_hold_free(k);
	k->src = NULL;
	k->srclen = 0;
}

/**
 * tdat_want_symbols - the addresses that will be looked up
 * @f: the file
 * @addrs: addresses (any order, repeats allowed)
 * @n: their number
 *
 * They are resolved in one pass over the kallsyms text, and lookups of
 * them are answered from what that pass kept: memory in proportion to
 * the addresses, not to the section.  Other addresses still resolve
 * (see ksyms_resolve()).  May be called again with more.
 *
 * Return: 0, or -1 when memory ran out (lookups then fall back on the
 * index).
 */
int tdat_want_symbols(struct tdat_file *f, const uint64_t *addrs, size_t n)
{
	struct tdat_kallsyms *k = f->ksyms;
	uint64_t *v;
	size_t i, m = 0;
	int ret = 0;

	if (!k)
		return 0;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return -1;
	pthread_mutex_lock(&k->lock);
	k->wanted = true;
	if (k->indexed)
		goto out;
	/* 0 too: libtraceevent prints a call site of 0 in format probes */
	memcpy(v, addrs, n * sizeof(*v));
	v[n] = 0;
	qsort(v, n + 1, sizeof(*v), cmp_u64);
	for (i = 0; i <= n; i++) {
		size_t at = res_pos(k, v[i]);

		if ((m && v[m - 1] == v[i]) ||
		    (at < k->nres && k->res[at].key == v[i]))
			continue;
		v[m++] = v[i];
	}
	if (m && resolve_set(k, v, m)) {
		ksyms_ensure_index(k);
		ret = -1;
	}
	unhold(k);
out:
	pthread_mutex_unlock(&k->lock);
	free(v);
	return ret;
}
