// SPDX-License-Identifier: GPL-3.0-or-later
//
// HelpPanel: what the selected run does, for the person in front of it (F1): its algorithm with
// the paper it comes from and its update rule, every parameter (meaning, unit, range, default,
// the theorem condition it takes part in), the privacy parameters, the compressor, the weights
// and the problem — all read from the descriptors, formulas rendered (mathtext.h). Follows the
// document and the current run.
//
// Threading: GUI thread.
#pragma once

#include <QTextBrowser>

namespace dplab {

class ExperimentDocument;

class HelpPanel : public QTextBrowser
{
    Q_OBJECT

public:
    explicit HelpPanel(ExperimentDocument *document, QWidget *parent = nullptr);

    /** Describes run `run` (−1: the experiment only). */
    void setRun(int run);
    /** The HTML shown (tests). */
    QString html() const { return mHtml; }

private:
    void refresh();

    ExperimentDocument *mDocument;
    int mRun = -1;
    QString mHtml;
};

} // namespace dplab
