# SPDX-License-Identifier: LGPL-2.1
#
# make            build the plugin (build/plugins/plugin_kmem.so),
#                 trace-kmem (build/trace-kmem) and, with libkshark-dev and
#                 the Qt KernelShark links, the KernelShark plugin
#                 (build/kernelshark/plugin-kmem.so)
# make check      run every test
# make demo       trace-cmd report -O kmem:stat on a bundled sample trace
# make install    plugin into libtraceevent's plugin directory, trace-kmem
#                 into $(prefix)/bin, its bash completion
# make install-user   the same under ~/.local
# make uninstall, make uninstall-user
#
# CC=clang, SANITIZE=1 (AddressSanitizer + UBSan, with gcc), V=1 work as
# usual.

# Dependencies first: every target that builds, tests, installs or
# packages runs scripts/deps.sh for what it needs (as root it installs
# the missing Debian packages; as a user it prints the apt-get line and
# stops), then make again with NO_DEPS=1.  So what the build can use
# (KernelShark, its Qt, asciidoc) is decided after the packages are
# there, never from the machine's state before them.  NO_DEPS=1 skips
# the step (debian/rules does: a package build installs nothing).
DEPS_FREE_GOALS := clean format uninstall uninstall-user deps check-deps
GOALS := $(or $(MAKECMDGOALS),all)
ifeq ($(NO_DEPS),)
ifneq ($(filter-out $(DEPS_FREE_GOALS),$(GOALS)),)
DEPS_STAGE := 1
endif
endif

ifeq ($(DEPS_STAGE),1)
# the modes of scripts/deps.sh each goal needs
DEPS_MODES := build \
	$(if $(filter check tests bench,$(GOALS)),check) \
	$(if $(filter install doc,$(GOALS)),doc) \
	$(if $(filter deb,$(GOALS)),deb) \
	$(if $(filter fuzz fuzz-build,$(GOALS)),fuzz)

$(GOALS): run-deps
	@:
run-deps:
	@CC="$(CC)" scripts/deps.sh $(strip $(DEPS_MODES))
	@$(MAKE) --no-print-directory NO_DEPS=1 $(MAKECMDGOALS)
.PHONY: $(GOALS) run-deps
else

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libtraceevent
CLI_PKGS := libtracecmd libtracefs libtraceevent
VERSION := 0.4.0

# Where libtraceevent looks for plugins: $(libdir)/traceevent/plugins,
# with libtraceevent's own libdir unless prefix or libdir are given.
TEP_LIBDIR := $(shell $(PKG_CONFIG) --variable=libdir libtraceevent 2>/dev/null)
prefix ?= /usr
ifeq ($(origin libdir),undefined)
ifeq ($(prefix),/usr)
libdir := $(if $(TEP_LIBDIR),$(TEP_LIBDIR),$(prefix)/lib)
else
libdir := $(prefix)/lib
endif
endif
plugindir ?= $(libdir)/traceevent/plugins
userplugindir ?= $(HOME)/.local/lib/traceevent/plugins
bindir ?= $(prefix)/bin
completiondir ?= $(prefix)/share/bash-completion/completions
mandir ?= $(prefix)/share/man
userbindir ?= $(HOME)/.local/bin
usercompletiondir ?= $(HOME)/.local/share/bash-completion/completions
# man-db finds it from ~/.local/bin in PATH
usermandir ?= $(HOME)/.local/share/man
DESTDIR ?=
DEMO_TRACE ?= sample-data/slab-fork-exec.dat

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter
CFLAGS ?= -O2 -g
ifeq ($(SANITIZE),1)
# clang links its sanitizer runtime into executables only: the plugins
# (-Wl,--no-undefined) and trace-cmd, which loads them, would need its
# shared runtime, and the KernelShark plugin a clang++ to match
ifneq ($(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),)
$(error SANITIZE=1 is a gcc build (clang links no sanitizer runtime into the plugins): make SANITIZE=1, without CC=clang)
endif
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
TEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
TEP_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS))
CLI_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(CLI_PKGS))
CLI_LIBS = $(shell $(PKG_CONFIG) --libs $(CLI_PKGS))
ALL_CFLAGS = -std=gnu11 $(WARN) -fPIC -fvisibility=hidden -MMD -MP \
	-DKMEM_VERSION='"$(VERSION)"' -Ilib -I$(B)/gen $(TEP_CFLAGS) $(CPPFLAGS) \
	$(CFLAGS)

B ?= build
# one spelling of each object (tests/run.sh passes B as an absolute
# path): the .d files name their targets as they were built, and a
# header change must reach them however make was called
override B := $(patsubst $(CURDIR)/%,%,$(abspath $(B)))
LIB_DIRS := base event pprof alloc analysis render feed options
LIB_SRC := $(wildcard $(LIB_DIRS:%=lib/%/*.c))
# lib/pprof/profile.proto, compiled by protoc-c into $(B)/gen/pprof/
PROTO_GEN := gen/pprof/profile.pb-c
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/$(PROTO_GEN).o
PLUGIN_SRC := $(wildcard plugin/*.c)
PLUGIN_OBJ := $(PLUGIN_SRC:%.c=$(B)/%.o)
PLUGIN := $(B)/plugins/plugin_kmem.so
LIBKMEM := $(B)/libkmem.a
READER_SRC := $(wildcard reader/*.c)
READER_OBJ := $(READER_SRC:%.c=$(B)/%.o)
LIBTDAT := $(B)/libtdat.a
READER_LIBS := $(shell $(PKG_CONFIG) --libs libzstd zlib libprotobuf-c 2>/dev/null || \
	echo -lzstd -lz -lprotobuf-c)
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
CLI := $(B)/trace-kmem
TEST_SRC := $(wildcard tests/unit/test_*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
# what test programs share (tests/unit/ files not named test_*), in an
# archive each links
UNIT_SRC := $(filter-out $(TEST_SRC),$(wildcard tests/unit/*.c))
UNIT_OBJ := $(UNIT_SRC:%.c=$(B)/%.o)
LIBUNIT := $(B)/libunit.a

# "  CC      build/lib/slab.o", as kbuild says it; V=1 shows the commands
ifneq ($(V),1)
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
else
say =
endif

# man pages from Documentation/*.txt, as trace-cmd builds its own:
# asciidoc to DocBook, xmlto to troff.  Debian's asciidoc runs on the
# system python3 (/usr/bin first: a python of one's own lacks its module).
MAN_TXT := trace-kmem.1 trace-kmem-record.1 kmem-plugin.7 kmem-kernelshark.7 \
	   kmem-stat-definitions.7 kmem-json.5 kmem-numa.5 kmem-fleet.7
MAN_PAGES := $(MAN_TXT:%=$(B)/man/%)
DOC_PATH := PATH=/usr/bin:$$PATH
HAVE_DOC := $(shell $(DOC_PATH) command -v asciidoc >/dev/null && \
	      command -v xmlto >/dev/null && echo 1)

all: $(PLUGIN) $(CLI) kshark-plugin
	@echo "built: $(CLI) and $(PLUGIN)$(if $(HAVE_KS_PLUGIN), and $(KS_PLUGIN))"
	@echo "  use: $(CLI) stat trace.dat, or TRACEEVENT_PLUGIN_DIR=$(B)/plugins trace-cmd report -O kmem:stat"

# what scripts/deps.sh says of the build's and the tests' packages
deps:
	$(Q)scripts/deps.sh build

check-deps:
	$(Q)scripts/deps.sh check

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the C of the profile format; what includes its header waits for it
%/$(PROTO_GEN).c %/$(PROTO_GEN).h: lib/pprof/profile.proto
	@mkdir -p $(dir $@)
	$(call say,PROTOC,$@)
	$(Q)protoc-c --c_out=$(dir $@) -Ilib/pprof $< 2>&1 | \
		{ grep -v 'deprecated' >&2 || true; }
	$(Q)test -s $*/$(PROTO_GEN).c

$(B)/$(PROTO_GEN).o: $(B)/$(PROTO_GEN).c
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/lib/pprof/pprof.o: | $(B)/$(PROTO_GEN).h

$(B)/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -pthread -Ireader $(CLI_CFLAGS) -c -o $@ $<

$(B)/plugin/%.o: plugin/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Ireader -c -o $@ $<

$(B)/reader/%.o: reader/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -pthread -c -o $@ $<

$(LIBTDAT): $(READER_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIBKMEM) $(LIBTDAT)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -pthread -o $@ $(CLI_OBJ) $(LIBTDAT) $(LIBKMEM) \
		$(CLI_LIBS) $(READER_LIBS)

$(LIBKMEM): $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(PLUGIN): $(PLUGIN_OBJ) $(LIBKMEM) $(LIBTDAT)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-Bsymbolic -Wl,--no-undefined $(LDFLAGS) -o $@ \
		$(PLUGIN_OBJ) $(LIBTDAT) $(LIBKMEM) $(TEP_LIBS) $(READER_LIBS) \
		-pthread -ldl

$(UNIT_OBJ): $(B)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -Ireader -c -o $@ $<

$(LIBUNIT): $(UNIT_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/tests/%: tests/unit/%.c $(LIBUNIT) $(LIBKMEM) $(LIBTDAT) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -Ireader -pthread -o $@ $< $(LIBUNIT) \
		$(LIBTDAT) $(LIBKMEM) $(TEP_LIBS) $(READER_LIBS) $(LDFLAGS)

# its allocations fail one by one (the test's own malloc, calloc, realloc)
$(B)/tests/test_folded_oom: LDFLAGS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# test tools run by tests/e2e/ scripts
$(B)/tools/%: tests/tools/%.c $(LIBTDAT)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -Ireader -pthread -o $@ $< $(LIBTDAT) \
		$(TEP_LIBS) $(READER_LIBS) $(LDFLAGS)

# live_tep: live's tep handle against libtracefs' (tests/e2e/cli_live.sh)
$(B)/tools/live_tep: tests/tools/live_tep.c $(B)/cli/live_formats.o
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -Icli $(CLI_CFLAGS) -o $@ $< \
		$(B)/cli/live_formats.o $(CLI_LIBS) $(LDFLAGS)

# rec_digest: the records of reader/ against libtracecmd's (tests/e2e/wild.sh)
$(B)/tools/rec_digest: tests/tools/rec_digest.c $(LIBTDAT)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -Ireader $(CLI_CFLAGS) -pthread -o $@ $< \
		$(LIBTDAT) $(CLI_LIBS) $(READER_LIBS) $(LDFLAGS)

# failalloc.so: the Nth allocation of a run fails (tests/e2e/oom.sh);
# preloaded into trace-kmem, so built as a library, without sanitizers
$(B)/tools/failalloc.so: tests/tools/failalloc.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -O2 $(WARN) -D_GNU_SOURCE -fPIC -shared -o $@ $< -ldl

TOOL_SRC := $(filter-out tests/tools/failalloc.c,$(wildcard tests/tools/*.c))
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(B)/tools/%) $(B)/tools/failalloc.so

# KernelShark (libkshark-dev): what its C API shows of a trace, for
# tests/e2e/kshark_info.sh; skipped with one line without it.  Its
# headers are system headers (they trip -Wextra).
HAVE_KSHARK := $(shell pkg-config --exists libkshark 2>/dev/null && echo 1)
KSHARK_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags libkshark 2>/dev/null))
KSHARK_LIBS := $(shell pkg-config --libs libkshark 2>/dev/null) -ldl
KSHARK_TOOLS := $(if $(HAVE_KSHARK),$(B)/kshark/kshark_info $(B)/kshark/kshark_kmem \
	$(B)/kshark/kshark_session)

# The KernelShark plugin (kernelshark/): libkshark-dev, the Qt Widgets
# headers of the Qt the installed libkshark-gui links (Qt 5 on Debian
# 12, KernelShark 2.2: qtbase5-dev; Qt 6 on Debian 13, KernelShark 2.4:
# qt6-base-dev), the GLU headers that libkshark-plot.h includes
# (libglu1-mesa-dev, which qtbase5-dev pulls in and qt6-base-dev does
# not) and a C++ compiler, else skipped with one line.
# libkshark-gui and libkshark-plot are linked by the path of their real
# file: 2.4's libkshark-gui.so points to nothing (scripts/kshark-qt.sh).
CXX ?= c++
KS_GUI_LIB := $(if $(HAVE_KSHARK),$(shell sh scripts/kshark-qt.sh lib kshark-gui))
KS_PLOT_LIB := $(if $(HAVE_KSHARK),$(shell sh scripts/kshark-qt.sh lib kshark-plot))
KS_QT := $(if $(KS_GUI_LIB),$(shell sh scripts/kshark-qt.sh major))
KS_QT_PKG := $(if $(KS_QT),$(if $(filter 5,$(KS_QT)),qtbase5-dev,qt$(KS_QT)-base-dev))
KS_QT_MOD := Qt$(or $(KS_QT),5)Widgets
HAVE_QT := $(if $(KS_PLOT_LIB),$(shell $(PKG_CONFIG) --exists $(KS_QT_MOD) 2>/dev/null && echo 1))
HAVE_GLU := $(shell $(PKG_CONFIG) --exists glu 2>/dev/null && echo 1)
HAVE_CXX := $(shell command -v $(CXX) >/dev/null 2>&1 && echo 1)
HAVE_KS_PLUGIN := $(and $(HAVE_KSHARK),$(HAVE_QT),$(HAVE_GLU),$(HAVE_CXX))
KS_MISSING := $(strip $(if $(HAVE_KSHARK),,libkshark-dev) \
	$(if $(HAVE_KSHARK),$(if $(KS_PLOT_LIB),,kernelshark)) \
	$(if $(HAVE_QT),,$(or $(KS_QT_PKG),qtbase5-dev or qt6-base-dev)) \
	$(if $(HAVE_GLU),,libglu1-mesa-dev) $(if $(HAVE_CXX),,$(CXX)))
KS_PLUGIN := $(B)/kernelshark/plugin-kmem.so
KS_PLUGIN_C := $(wildcard kernelshark/*.c)
KS_PLUGIN_CXX := $(wildcard kernelshark/*.cpp)
KS_PLUGIN_OBJ := $(KS_PLUGIN_C:%.c=$(B)/%.o) $(KS_PLUGIN_CXX:%.cpp=$(B)/%.o)
QT_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags $(KS_QT_MOD) 2>/dev/null))
QT_LIBS := $(shell $(PKG_CONFIG) --libs $(KS_QT_MOD) 2>/dev/null)
KSHARK_PLUGINDIR := $(shell sed -n 's/^\#define KS_PLUGIN_INSTALL_PREFIX "\(.*\)"/\1/p' \
	/usr/include/kernelshark/KsCmakeDef.hpp 2>/dev/null)
kshark_plugindir ?= $(if $(KSHARK_PLUGINDIR),$(KSHARK_PLUGINDIR),$(libdir)/kernelshark/plugins)
CXX_WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
# CXXFLAGS when given (dpkg-buildflags: its CFLAGS have C-only flags
# such as -Werror=implicit-function-declaration on Debian 13), else CFLAGS
CXXFLAGS ?= $(CFLAGS)
ALL_CXXFLAGS = -std=gnu++17 $(CXX_WARN) -fPIC -fvisibility=hidden -MMD -MP \
	-Ilib $(KSHARK_CFLAGS) $(QT_CFLAGS) $(CPPFLAGS) $(CXXFLAGS)

$(B)/kernelshark/%.o: kernelshark/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -Ireader $(KSHARK_CFLAGS) $(CLI_CFLAGS) -c -o $@ $<

$(B)/kernelshark/%.o: kernelshark/%.cpp
	@mkdir -p $(dir $@)
	$(call say,CXX,$@)
	$(Q)$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

$(KS_PLUGIN): $(KS_PLUGIN_OBJ) $(LIBKMEM) $(LIBTDAT)
	$(call say,LD,$@)
	$(Q)$(CXX) -shared -Wl,--no-undefined $(LDFLAGS) -o $@ $(KS_PLUGIN_OBJ) \
		$(LIBTDAT) $(LIBKMEM) $(READER_LIBS) $(KS_GUI_LIB) $(KS_PLOT_LIB) $(KSHARK_LIBS) $(QT_LIBS) \
		$(CLI_LIBS) -lGL -pthread

kshark-plugin: $(if $(HAVE_KS_PLUGIN),$(KS_PLUGIN))
	$(if $(HAVE_KS_PLUGIN),,@echo "kshark-plugin: not built: it needs $(KS_MISSING)")

$(B)/kshark/%: tests/kshark/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -D_GNU_SOURCE -Ikernelshark $(KSHARK_CFLAGS) -o $@ $< \
		$(KSHARK_LIBS) $(LDFLAGS)

tests: $(TEST_BIN) $(TOOL_BIN) $(KSHARK_TOOLS)
	$(if $(HAVE_KSHARK),,@echo "tests: no libkshark-dev: the KernelShark test tool is not built")

check: all tests
	$(Q)B=$(B) tests/run.sh

demo: all
	$(Q)DEMO_TRACE=$(DEMO_TRACE) scripts/demo.sh $(PLUGIN)

install: all doc
	$(Q)DESTDIR="$(DESTDIR)" scripts/install.sh install "$(DESTDIR)$(plugindir)" $(PLUGIN)
	$(Q)install -D -m 0755 $(CLI) "$(DESTDIR)$(bindir)/trace-kmem"
	$(Q)install -D -m 0755 sample-data/record.sh "$(DESTDIR)$(bindir)/trace-kmem-record"
	$(Q)install -D -m 0644 completion/trace-kmem "$(DESTDIR)$(completiondir)/trace-kmem"
	$(Q)for m in $(MAN_PAGES); do \
		install -D -m 0644 $$m "$(DESTDIR)$(mandir)/man$${m##*.}/$${m##*/}" || exit 1; \
	done
	$(if $(HAVE_KS_PLUGIN),$(Q)install -D -m 0644 $(KS_PLUGIN) "$(DESTDIR)$(kshark_plugindir)/plugin-kmem.so")
	@echo "install: $(DESTDIR)$(bindir)/trace-kmem"

# the man pages too when asciidoc is there to make them (make doc's
# packages), else one line says how
install-user: all $(if $(HAVE_DOC),doc)
	$(Q)scripts/install.sh install-user "$(userplugindir)" $(PLUGIN)
	$(Q)install -D -m 0755 $(CLI) "$(userbindir)/trace-kmem"
	$(Q)install -D -m 0755 sample-data/record.sh "$(userbindir)/trace-kmem-record"
	$(Q)install -D -m 0644 completion/trace-kmem "$(usercompletiondir)/trace-kmem"
	$(if $(HAVE_DOC),$(Q)for m in $(MAN_PAGES); do \
		install -D -m 0644 $$m "$(usermandir)/man$${m##*.}/$${m##*/}" || exit 1; \
	done)
	@echo "install: $(userbindir)/trace-kmem, trace-kmem-record, the bash completion$(if $(HAVE_DOC), and the man pages in $(usermandir))"
	$(if $(HAVE_DOC),,@echo "install: no man pages (they need asciidoc-base xmlto docbook-xsl docbook-xml: apt-get install --no-install-recommends them, then make install-user again)")

uninstall:
	$(Q)DESTDIR="$(DESTDIR)" scripts/install.sh uninstall "$(DESTDIR)$(plugindir)"
	$(Q)rm -f "$(DESTDIR)$(bindir)/trace-kmem" "$(DESTDIR)$(bindir)/trace-kmem-record" \
		"$(DESTDIR)$(completiondir)/trace-kmem"
	$(Q)for m in $(MAN_TXT); do rm -f "$(DESTDIR)$(mandir)/man$${m##*.}/$$m"; done
	$(Q)rm -f "$(DESTDIR)$(kshark_plugindir)/plugin-kmem.so"
	@echo "uninstall: no trace-kmem, trace-kmem-record, bash completion, man page or KernelShark plugin of trace-kmem left under $(DESTDIR)$(prefix)"

uninstall-user:
	$(Q)scripts/install.sh uninstall-user "$(userplugindir)"
	$(Q)rm -f "$(userbindir)/trace-kmem" "$(userbindir)/trace-kmem-record" \
		"$(usercompletiondir)/trace-kmem"
	$(Q)for m in $(MAN_TXT); do rm -f "$(usermandir)/man$${m##*.}/$$m"; done
	@echo "uninstall: no trace-kmem, trace-kmem-record, bash completion or man page of trace-kmem left in ~/.local"

bench: all $(KSHARK_TOOLS)
	$(Q)B=$(B) bench/run.sh

doc: $(MAN_PAGES)

define build-man
	$(if $(HAVE_DOC),,$(error the man pages need asciidoc and xmlto: \
		apt-get install --no-install-recommends asciidoc-base xmlto docbook-xsl docbook-xml))
	@mkdir -p $(B)/man
	$(call say,MAN,$@)
	$(Q)$(DOC_PATH) asciidoc -b docbook -d manpage -a mansource=trace-kmem \
		-a manversion=$(VERSION) -a manmanual="trace-kmem Manual" \
		-o $@.xml $< >$@.log 2>&1 || { cat $@.log; exit 1; }
	$(Q)$(DOC_PATH) xmlto --stringparam man.th.title.max.length=40 \
		-o $(B)/man man $@.xml >>$@.log 2>&1 || \
		{ cat $@.log; exit 1; }
	$(Q)! grep -i "error" $@.log || exit 1
endef

$(B)/man/%.1: Documentation/%.txt
	$(build-man)
$(B)/man/%.5: Documentation/%.txt
	$(build-man)
$(B)/man/%.7: Documentation/%.txt
	$(build-man)

# Debian packages (debian/, debhelper): trace-kmem, trace-kmem-plugin and
# trace-kmem-kshark (the KernelShark plugin),
# written beside the source tree, as dpkg-buildpackage does
deb:
	dpkg-buildpackage -us -uc -b
	@ls -1 ../trace-kmem_$(VERSION)_*.deb ../trace-kmem-plugin_$(VERSION)_*.deb \
		../trace-kmem-kshark_$(VERSION)_*.deb

# the README's example outputs, remade from the current code
readme: all
	$(Q)python3 tests/readme/examples.py --update --tk $(B)/trace-kmem

format:
	clang-format -i lib/*/*.[ch] plugin/*.[ch] cli/*.[ch] reader/*.[ch] tests/unit/*.[ch] \
		kernelshark/*.[ch] tests/kshark/*.c

clean:
	rm -rf $(B) tests/out

.PHONY: all kshark-plugin deps check-deps tests check demo install install-user uninstall uninstall-user \
	format clean bench readme doc deb

-include $(LIB_OBJ:.o=.d) $(PLUGIN_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(READER_OBJ:.o=.d) \
	$(UNIT_OBJ:.o=.d) \
	$(KS_PLUGIN_OBJ:.o=.d) $(KSHARK_TOOLS:=.d)

# ---------------------------------------------------------------------
# Fuzzing (tests/fuzz/): libFuzzer targets built with clang into
# build-fuzz/, with AddressSanitizer and UBSan on lib/ and reader/.
#
# make fuzz-build                 build-fuzz/fuzz_reader, fuzz_records,
#                                 fuzz_strings, fuzz_copy
# make fuzz [FUZZ_SECONDS=60]     seeds, regression corpus, then fuzzing
#                                 (tests/fuzz/run.sh)
# ---------------------------------------------------------------------
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FZ := build-fuzz
FZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Wno-unused-parameter \
	-pthread -MMD -MP -DKMEM_VERSION='"$(VERSION)"' \
	-Ilib -I$(FZ)/gen -Ireader $(TEP_CFLAGS) $(FZ_SAN) \
	-fsanitize=fuzzer-no-link
FZ_LIB_OBJ := $(LIB_SRC:%.c=$(FZ)/%.o) $(FZ)/$(PROTO_GEN).o
FZ_READER_OBJ := $(READER_SRC:%.c=$(FZ)/%.o)
FZ_TARGETS := $(FZ)/fuzz_reader $(FZ)/fuzz_records $(FZ)/fuzz_strings \
	$(FZ)/fuzz_copy
# fuzz_copy: the libtracecmd record path of cli/ and, with libkshark-dev,
# the KernelShark plugin's copies
FZ_COPY_OBJ := $(FZ)/tests/fuzz/fuzz_copy.o $(FZ)/cli/tracecmd_push.o \
	$(FZ)/cli/pipeline.o $(FZ)/cli/pageout.o $(FZ)/reader/threads.o \
	$(FZ)/reader/pages.o \
	$(if $(HAVE_KSHARK),$(FZ)/tests/fuzz/fuzz_copy_ks.o \
		$(FZ)/kernelshark/copies.o)

$(FZ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FZ_CFLAGS) -c -o $@ $<

$(FZ)/$(PROTO_GEN).o: $(FZ)/$(PROTO_GEN).c
	$(Q)$(FUZZ_CC) $(FZ_CFLAGS) -c -o $@ $<

$(FZ)/lib/pprof/pprof.o: | $(FZ)/$(PROTO_GEN).h

$(FZ)/reader/%.o $(FZ)/tests/fuzz/%.o: FZ_CFLAGS += -D_GNU_SOURCE

$(FZ)/libkmem.a: $(FZ_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FZ)/libtdat.a: $(FZ_READER_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FZ)/fuzz_reader: $(FZ)/tests/fuzz/fuzz_reader.o $(FZ)/cli/later.o \
		$(FZ)/libtdat.a $(FZ)/libkmem.a
	$(Q)$(FUZZ_CC) $(FZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ \
		$(TEP_LIBS) $(READER_LIBS)

$(FZ)/fuzz_records: $(FZ)/tests/fuzz/fuzz_records.o $(FZ)/libkmem.a
	$(Q)$(FUZZ_CC) $(FZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ \
		$(TEP_LIBS) $(READER_LIBS)

$(FZ)/fuzz_strings: $(FZ)/tests/fuzz/fuzz_strings.o $(FZ)/libkmem.a
	$(Q)$(FUZZ_CC) $(FZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ \
		$(TEP_LIBS) $(READER_LIBS)

$(FZ)/fuzz_copy: $(FZ_COPY_OBJ) $(FZ)/libkmem.a
	$(Q)$(FUZZ_CC) $(FZ_SAN) -fsanitize=fuzzer -pthread -o $@ $^ \
		$(TEP_LIBS) $(READER_LIBS)

$(FZ)/tests/fuzz/fuzz_records.o: FZ_CFLAGS += \
	-DFUZZ_FORMATS='"$(CURDIR)/tests/formats"'

$(FZ)/cli/%.o: FZ_CFLAGS += -D_GNU_SOURCE -Icli
$(FZ)/kernelshark/copies.o $(FZ)/tests/fuzz/fuzz_copy_ks.o: FZ_CFLAGS += \
	-Ikernelshark $(KSHARK_CFLAGS)
$(FZ)/tests/fuzz/fuzz_reader.o: FZ_CFLAGS += -Icli
$(FZ)/tests/fuzz/fuzz_copy.o: FZ_CFLAGS += -Icli \
	$(if $(HAVE_KSHARK),-DFUZZ_KSHARK)

fuzz-build: $(FZ_TARGETS)

fuzz: fuzz-build
	$(Q)FUZZ_CC=$(FUZZ_CC) tests/fuzz/run.sh $(FUZZ_SECONDS)

.PHONY: fuzz-build fuzz

-include $(FZ_LIB_OBJ:.o=.d) $(FZ_READER_OBJ:.o=.d) \
	$(FZ)/tests/fuzz/fuzz_reader.d $(FZ)/tests/fuzz/fuzz_records.d \
	$(FZ)/tests/fuzz/fuzz_strings.d $(FZ_COPY_OBJ:.o=.d)

endif # DEPS_STAGE
