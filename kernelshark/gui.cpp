// SPDX-License-Identifier: LGPL-2.1
/*
 * The plugin in KernelShark's window: its dialog (Tools > kmem), where
 * a call site is chosen for its own live-memory curve and the marks are
 * switched on and off, and the numbers of a double-clicked mark, with
 * the allocation put under marker A and its free under marker B.
 */
#include <stdio.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"
#include "kmem_ks.h"
#include "libkshark.h"

/*
 * KernelShark's main window, of which the plugin calls one member,
 * exported by libkshark-gui (KsMainWindow.hpp is not installed).  The
 * member is the same in KernelShark 2.2 (Qt 5) and 2.4 (Qt 6):
 * KsMainWindow::addPluginMenu(QString, void (*)(KsMainWindow *)), with
 * QString that of the Qt libkshark-gui links, which the Makefile builds
 * against (scripts/kshark-qt.sh).
 */
class KsMainWindow {
public:
	void addPluginMenu(QString place, pluginActionFunc action);
};

static void *gui_ptr;

class KmemDialog : public QDialog {
public:
	KmemDialog();
	void refresh();

private:
	QComboBox _stream, _site;
	QCheckBox _links, _leaks, _live;
	QLabel _scales;
	QPushButton _apply, _close;

	void _fillSites();
	void _fillScales(const kmem_ks_ctx *ks);
	void _doApply();
};

static KmemDialog *dialog;

KmemDialog::KmemDialog()
: _links("Links from allocations to their frees"),
  _leaks("Marks on allocations never freed"),
  _live("Live memory curves"), _apply("Apply"), _close("Close")
{
	QVBoxLayout *top = new QVBoxLayout;
	QFormLayout *form = new QFormLayout;
	QHBoxLayout *buttons = new QHBoxLayout;

	setWindowTitle("kmem");
	form->addRow("Trace:", &_stream);
	form->addRow("Call site curve:", &_site);
	top->addLayout(form);
	top->addWidget(&_links);
	top->addWidget(&_leaks);
	top->addWidget(&_live);
	top->addWidget(&_scales);
	buttons->addStretch();
	buttons->addWidget(&_apply);
	buttons->addWidget(&_close);
	top->addLayout(buttons);
	setLayout(top);
	/* Qt 5 also has currentIndexChanged(const QString &), Qt 6 not */
	connect(&_stream, QOverload<int>::of(&QComboBox::currentIndexChanged),
		[this](int) { _fillSites(); });
	connect(&_apply, &QPushButton::pressed, [this]() { _doApply(); });
	connect(&_close, &QPushButton::pressed, [this]() { hide(); });
}

/* The streams the plugin is loaded on. */
void KmemDialog::refresh()
{
	kshark_context *kctx = nullptr;

	_stream.clear();
	if (!kshark_instance(&kctx))
		return;
	for (int sd = 0; sd < KS_DEFAULT_NUM_STREAMS; sd++) {
		kmem_ks_ctx *ks = kmem_ks_of(sd);

		if (ks)
			_stream.addItem(QString("%1: %2").arg(sd).arg(
						ks->stream->file),
					sd);
	}
	_fillSites();
}

void KmemDialog::_fillSites()
{
	kmem_ks_ctx *ks = kmem_ks_of(_stream.currentData().toInt());

	_site.clear();
	_site.addItem("(none)", QVariant::fromValue((qulonglong)0));
	_scales.clear();
	if (!ks || !kmem_ks_ready(ks))
		return;
	_fillScales(ks);
	for (size_t i = 0; i < ks->nr_sites; i++) {
		const kmem_ks_site *s = &ks->sites[i];

		_site.addItem(QString("%1 (%2, peak %3 bytes)")
				      .arg(s->name)
				      .arg(kmem_ks_alloc_name(s->allocator))
				      .arg(s->peak_bytes),
			      QVariant::fromValue((qulonglong)i + 1));
		if (ks->site == s->call_site &&
		    ks->site_allocator == s->allocator)
			_site.setCurrentIndex(_site.count() - 1);
	}
	_links.setChecked(ks->show & KMEM_KS_SHOW_LINKS);
	_leaks.setChecked(ks->show & KMEM_KS_SHOW_LEAKS);
	_live.setChecked(ks->show & KMEM_KS_SHOW_LIVE);
}

/* Each curve's colour and scale (kmem_ks_describe_curve()). */
void KmemDialog::_fillScales(const kmem_ks_ctx *ks)
{
	QString text;
	char line[512];

	for (unsigned int a = 0; a <= KMEM_NR_ALLOC; a++) {
		uint32_t rgb = a < KMEM_NR_ALLOC ? kmem_ks_alloc_rgb(a)
						 : KMEM_KS_SITE_RGB;

		if (!kmem_ks_describe_curve(ks, a, line, sizeof(line)))
			continue;
		text += QString("<span style=\"color:#%1\">&#9632;</span> "
				"%2<br>")
				.arg(rgb, 6, 16, QChar('0'))
				.arg(QString(line).toHtmlEscaped());
	}
	if (text.isEmpty())
		text = "No live-memory curve: no allocation was live.";
	_scales.setTextFormat(Qt::RichText);
	_scales.setWordWrap(true);
	_scales.setText(text);
}

void KmemDialog::_doApply()
{
	kmem_ks_ctx *ks = kmem_ks_of(_stream.currentData().toInt());
	size_t i = _site.currentData().toULongLong();
	uint64_t site = 0;
	uint32_t allocator = 0;

	if (!ks || !kmem_ks_ready(ks))
		return;
	ks->show = (_links.isChecked() ? KMEM_KS_SHOW_LINKS : 0) |
		   (_leaks.isChecked() ? KMEM_KS_SHOW_LEAKS : 0) |
		   (_live.isChecked() ? KMEM_KS_SHOW_LIVE : 0);
	if (i && i <= ks->nr_sites) {
		site = ks->sites[i - 1].call_site;
		allocator = ks->sites[i - 1].allocator;
	}
	if (site != ks->site || (site && allocator != ks->site_allocator)) {
		QApplication::setOverrideCursor(Qt::WaitCursor);
		kmem_ks_choose_site(ks->sd, site, allocator);
		QApplication::restoreOverrideCursor();
		_fillSites();
	}
	/* the graph calls the draw handlers again when it repaints */
	for (QWidget *w : QApplication::allWidgets())
		if (w->inherits("KsGLWidget"))
			w->update();
}

static void showDialog(KsMainWindow *)
{
	dialog->refresh();
	dialog->show();
}

/**
 * kmem_ks_add_menu - put the plugin's dialog in KernelShark's menus
 * @gui: the main window
 *
 * Return: the dialog.
 */
void *kmem_ks_add_menu(void *gui)
{
	if (!dialog) {
		dialog = new KmemDialog;
		gui_ptr = gui;
	}
	static_cast<KsMainWindow *>(gui)->addPluginMenu("Tools/kmem",
							 showDialog);
	return dialog;
}

/**
 * kmem_ks_show_numbers - say a mark's numbers and put it under markers
 * @ks: the stream's context
 * @p: the link or leak
 *
 * The allocation goes under marker A, its free (if any) under marker B,
 * and a window says what kmem_ks_describe() says.
 */
void kmem_ks_show_numbers(const kmem_ks_ctx *ks, const kmem_ks_pair *p)
{
	char text[1024];
	QMessageBox *box;

	if (!gui_ptr)
		return;
	kmem_ks_describe(ks, p, text, sizeof(text));
	markEntryA(gui_ptr, p->alloc);
	if (p->free)
		markEntryB(gui_ptr, p->free);
	box = new QMessageBox(QMessageBox::Information, "kmem", text,
			      QMessageBox::Close);
	box->setAttribute(Qt::WA_DeleteOnClose);
	box->setModal(false);
	box->show();
}
