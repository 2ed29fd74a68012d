// SPDX-License-Identifier: GPL-3.0-or-later
#include "finalvaluestable.h"

#include "numbertext.h"

#include "metricnames.h"
#include "textconvert.h"

#include "dplab/engine/writers.h"
#include "dplab/common/stats.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>

#include <cmath>

namespace dplab {

namespace {

/** An item that sorts by a number (the mean), not by its text. */
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString &text, double key)
        : QTableWidgetItem(text)
        , mKey(key)
    {
        setData(Qt::UserRole, key);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        const double a = mKey;
        const double b = other.data(Qt::UserRole).toDouble();
        if (std::isnan(a))
            return false;
        if (std::isnan(b))
            return true;
        return a < b;
    }

private:
    double mKey;
};

} // namespace

FinalStats finalStats(const RunResult &run, int m)
{
    FinalStats s;
    std::vector<double> values;
    for (const RepetitionResult &rep : run.repetitions) {
        if (rep.values.empty() || m < 0 || m >= static_cast<int>(rep.values.back().size()))
            continue;
        values.push_back(rep.values.back()[m]);
    }
    const MeanStd stats = meanStd(values.data(), values.size());
    s.count = stats.count;
    s.mean = stats.mean;
    s.std = s.count == 0 ? 0.0 : stats.std;
    return s;
}

FinalValuesTable::FinalValuesTable(QWidget *parent)
    : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setAlternatingRowColors(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->setVisible(false);
    setSortingEnabled(true);
    setToolTip(tr("Final value of each metric: mean ± std over repetitions. Click a header to sort; "
                  "Ctrl+C copies the table."));
}

void FinalValuesTable::clearResult()
{
    setSortingEnabled(false);
    clear();
    setRowCount(0);
    setColumnCount(0);
    setSortingEnabled(true);
}

void FinalValuesTable::setResult(const ExperimentResult &result, const QString &sweepParameter)
{
    setSortingEnabled(false);
    clear();
    const std::vector<std::string> columns = metricColumns(result);
    const bool sweep = !sweepParameter.isEmpty();
    QStringList headers;
    if (sweep)
        headers << sweepParameter;
    headers << tr("run") << tr("status");
    for (const std::string &c : columns)
        headers << metricTitle(toQString(c));
    setColumnCount(headers.size());
    setHorizontalHeaderLabels(headers);
    for (int c = 0; c < int(columns.size()); ++c)
        horizontalHeaderItem(c + (sweep ? 3 : 2))->setToolTip(toQString(columns[c]));
    int rows = 0;
    for (const PointResult &p : result.points)
        rows += static_cast<int>(p.runs.size());
    setRowCount(rows);
    int row = 0;
    for (const PointResult &p : result.points) {
        for (const RunResult &run : p.runs) {
            int col = 0;
            if (sweep) {
                const QString value = toQString(p.value.is_string() ? p.value.get<std::string>() : p.value.dump());
                setItem(row, col++, new NumberItem(value, p.value.is_number() ? p.value.get<double>() : std::nan("")));
            }
            setItem(row, col++, new QTableWidgetItem(toQString(run.label)));
            setItem(row, col++, new QTableWidgetItem(QLatin1String(runStatusName(run.status()))));
            for (const std::string &c : columns) {
                const auto it = std::find(run.metricNames.begin(), run.metricNames.end(), c);
                if (it == run.metricNames.end()) {
                    setItem(row, col++, new NumberItem(QString(), std::nan("")));
                    continue;
                }
                const FinalStats s = finalStats(run, int(it - run.metricNames.begin()));
                QString text;
                if (s.count > 0) {
                    text = s.count > 1 ? formatMeanStd(s.mean, s.std) : QString::number(s.mean, 'g', 6);
                }
                setItem(row, col++, new NumberItem(text, s.mean));
            }
            ++row;
        }
    }
    setSortingEnabled(true);
}

QString FinalValuesTable::toTsv() const
{
    QString out;
    QStringList header;
    for (int c = 0; c < columnCount(); ++c)
        header << (horizontalHeaderItem(c) ? horizontalHeaderItem(c)->text() : QString());
    out += header.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (int r = 0; r < rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < columnCount(); ++c)
            cells << (item(r, c) ? item(r, c)->text() : QString());
        out += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return out;
}

void FinalValuesTable::copyToClipboard()
{
    QApplication::clipboard()->setText(toTsv());
}

void FinalValuesTable::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Copy)) {
        copyToClipboard();
        event->accept();
        return;
    }
    QTableWidget::keyPressEvent(event);
}

} // namespace dplab
