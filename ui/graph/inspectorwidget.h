// SPDX-License-Identifier: GPL-3.0-or-later
//
// InspectorWidget: beside the graph editor, the live verdicts of docs/architecture.md §6 — node and edge
// counts, (strong) connectivity with the offending nodes, and for the selected run the weight
// matrices it mixes with: row/column/doubly stochastic, symmetric, PSD, σ₂, spectral gap,
// ρ(W − 11ᵀ/n), Perron vectors; the matrix itself as a table on demand. It recomputes after
// every edit (coalesced into one update per event-loop turn).
//
// Threading: GUI thread.
#pragma once

#include "inspection.h"

#include <QWidget>

class QPushButton;
class QTextBrowser;

namespace dplab {

class ExperimentDocument;

class InspectorWidget : public QWidget
{
    Q_OBJECT

public:
    explicit InspectorWidget(ExperimentDocument *document, QWidget *parent = nullptr);

    /** The run whose weights are inspected (-1: the first run, if any). */
    void setCurrentRun(int run);
    int currentRun() const { return mRun; }
    const Inspection &inspection() const { return mInspection; }
    /** The rendered text (for tests and the report). */
    QString text() const;

public slots:
    /** Recomputes now. */
    void refresh();
    void showMatrixDialog();

signals:
    /** After every recomputation. */
    void inspected(const dplab::Inspection &inspection);

private:
    void scheduleRefresh();
    QString render() const;

    ExperimentDocument *mDocument;
    int mRun = -1;
    bool mPending = false;
    Inspection mInspection;
    QString mRunTitle;
    QTextBrowser *mBrowser;
    QPushButton *mMatrixButton;
};

} // namespace dplab
