// SPDX-License-Identifier: GPL-3.0-or-later
//
// A warning that does not block: window-modal, deleted on close, so a run (and a test) goes on
// while it is shown.
//
// Threading: GUI thread.
#pragma once

#include <QMessageBox>

namespace dplab {

inline void showNonBlockingWarning(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace dplab
