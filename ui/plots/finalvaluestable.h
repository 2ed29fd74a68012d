// SPDX-License-Identifier: GPL-3.0-or-later
//
// FinalValuesTable: the final value of every metric per run (and per sweep value) as
// mean ± std over repetitions, like summary.json; sortable by any column (numerically, by the
// mean), copyable as tab-separated text for a spreadsheet.
//
// Threading: GUI thread.
#pragma once

#include "dplab/engine/runner.h"

#include <QTableWidget>

namespace dplab {

/** Mean and sample standard deviation of the last recorded value of metric `m` over the
 *  repetitions of a run (NaN values skipped; std 0 for one value; NaN mean when none). */
struct FinalStats {
    double mean = 0.0;
    double std = 0.0;
    int count = 0;
};
FinalStats finalStats(const RunResult &run, int m);

class FinalValuesTable : public QTableWidget
{
    Q_OBJECT

public:
    explicit FinalValuesTable(QWidget *parent = nullptr);

    /** Fills the table from a finished (or stopped) run; `sweepParameter` names the swept
     *  key ("" without a sweep). */
    void setResult(const ExperimentResult &result, const QString &sweepParameter);
    void clearResult();
    /** The table as tab-separated text (header + rows), what Copy puts on the clipboard. */
    QString toTsv() const;

public slots:
    void copyToClipboard();

protected:
    void keyPressEvent(QKeyEvent *event) override;
};

} // namespace dplab
