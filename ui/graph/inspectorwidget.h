// SPDX-License-Identifier: GPL-3.0-or-later
//
// InspectorWidget: beside the graph editor, the live verdicts of docs/architecture.md §6 — node and edge
// counts, (strong) connectivity with the offending nodes, and for the selected run the weight
// matrices it mixes with: row/column/doubly stochastic, symmetric, PSD, σ₂, spectral gap,
// ρ(W − 11ᵀ/n), Perron vectors; the matrix itself as a table on demand, where the entries of
// the edges and the diagonal are editable: an edit makes the run's weights that explicit matrix
// (one undo step per entry) and the table's verdicts follow live. It recomputes after every
// edit (coalesced into one update per event-loop turn).
//
// Threading: GUI thread.
#pragma once

#include "inspection.h"

#include <QWidget>

class QDialog;
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

    /** Sets entry (row, column) of the inspected matrix `matrix` (an index into
     *  inspection().matrices) to `value`: the weights the inspected run mixes with become that
     *  explicit matrix ({"scheme": "matrix"}; for R/C only the edited one), in one undo step.
     *  Refuses (false, `error` says why) entries outside the graph's edges and diagonal,
     *  negative or non-finite values and matrices that could not be built. */
    bool setMatrixEntry(int matrix, int row, int column, double value, QString *error = nullptr);
    /** The weight-matrix dialog (not shown), on `matrix` with entry (row, column) current when
     *  given; deleted when closed. */
    QDialog *createMatrixDialog(int matrix = 0, int row = -1, int column = -1);

public slots:
    /** Recomputes now. */
    void refresh();
    void showMatrixDialog();
    /** The dialog with the weight agent `to` gives to what `from` sends (edge from -> to)
     *  current, on the first matrix. */
    void showMatrixDialogForEdge(int from, int to);

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
