// SPDX-License-Identifier: GPL-3.0-or-later
#include "inspectorwidget.h"

#include "experimentdocument.h"
#include "graphdocument.h"
#include "textconvert.h"

#include "dplab/common/numberformat.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLocale>
#include <QSignalBlocker>
#include <QUndoStack>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBrowser>

#include <algorithm>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {

QString mark(bool ok)
{
    return ok ? QStringLiteral("<span style='color:#1a7f37'>✓</span>")
              : QStringLiteral("<span style='color:#c01c28'>✗</span>");
}

QString vectorText(const Eigen::VectorXd &v, int limit = 12)
{
    QStringList parts;
    const double scale = v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0;
    for (Eigen::Index i = 0; i < v.size() && i < limit; ++i)
        parts << numberText(withoutRoundOff(v[i], scale), 3);
    if (v.size() > limit)
        parts << QStringLiteral("…");
    return QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
}

QString nodeList(const std::vector<int> &nodes, int limit = 20)
{
    QStringList parts;
    for (std::size_t k = 0; k < nodes.size() && static_cast<int>(k) < limit; ++k)
        parts << QString::number(nodes[k]);
    if (static_cast<int>(nodes.size()) > limit)
        parts << QStringLiteral("…");
    return parts.join(QStringLiteral(", "));
}

} // namespace

InspectorWidget::InspectorWidget(ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mBrowser(new QTextBrowser(this))
    , mMatrixButton(new QPushButton(tr("Weight matrix…"), this))
{
    mBrowser->setWordWrapMode(QTextOption::WordWrap);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    mBrowser->setOpenLinks(false);
    mBrowser->setFrameShape(QFrame::NoFrame);
    layout->addWidget(mBrowser, 1);
    mMatrixButton->setToolTip(tr("Show the weight matrices of the selected run as a table"));
    layout->addWidget(mMatrixButton);
    connect(mMatrixButton, &QPushButton::clicked, this, &InspectorWidget::showMatrixDialog);
    connect(document, &ExperimentDocument::changed, this, &InspectorWidget::scheduleRefresh);
    connect(document, &ExperimentDocument::loaded, this, &InspectorWidget::scheduleRefresh);
    refresh();
}

void InspectorWidget::setCurrentRun(int run)
{
    if (mRun == run)
        return;
    mRun = run;
    scheduleRefresh();
}

QString InspectorWidget::text() const
{
    return mBrowser->toPlainText();
}

void InspectorWidget::scheduleRefresh()
{
    if (mPending)
        return;
    mPending = true;
    QTimer::singleShot(0, this, &InspectorWidget::refresh);
}

void InspectorWidget::refresh()
{
    mPending = false;
    const Graph &graph = mDocument->graphDocument()->graph();
    const int run = mRun >= 0 && mRun < mDocument->runCount() ? mRun : (mDocument->runCount() > 0 ? 0 : -1);
    WeightNeeds needs = graph.isDirected() ? WeightNeeds::RowColumn : WeightNeeds::Doubly;
    Json weights = graph.isDirected() ? Json{{"row", {{"scheme", "uniform"}}}, {"column", {{"scheme", "uniform"}}}}
                                      : Json{{"scheme", "metropolis"}};
    mRunTitle.clear();
    if (run >= 0) {
        const Json r = mDocument->run(run);
        const AlgorithmDescriptor *algorithm = findAlgorithm(r.value("algorithm", std::string()));
        if (algorithm)
            needs = algorithm->weights;
        weights = mDocument->runWeights(run);
        mRunTitle = tr("Run “%1” (%2)")
                        .arg(toQString(r.value("label", std::string())),
                             algorithm ? toQString(algorithm->name) : tr("unknown algorithm"));
    }
    mInspection = inspectGraph(graph, weights, needs);
    mBrowser->setHtml(render());
    mMatrixButton->setEnabled(!mInspection.matrices.isEmpty());
    emit inspected(mInspection);
}

QString InspectorWidget::render() const
{
    const Inspection &in = mInspection;
    QString html;
    html += QStringLiteral("<h3 style='margin:2px 0'>%1</h3>").arg(tr("Graph"));
    html += QStringLiteral("<p style='margin:2px 0'>%1</p>")
                .arg(tr("%1 nodes, %2 edges, %3")
                         .arg(in.nodes)
                         .arg(in.edges)
                         .arg(in.directed ? tr("directed") : tr("undirected")));
    if (in.nodes > 0) {
        if (in.directed)
            html += QStringLiteral("<p style='margin:2px 0'>%1</p>")
                        .arg(tr("in-degree %1–%2, out-degree %3–%4")
                                 .arg(in.minInDegree)
                                 .arg(in.maxInDegree)
                                 .arg(in.minOutDegree)
                                 .arg(in.maxOutDegree));
        else
            html += QStringLiteral("<p style='margin:2px 0'>%1</p>")
                        .arg(tr("degree %1–%2").arg(in.minInDegree).arg(in.maxInDegree));
    }
    const QString connectedWord = in.directed ? tr("strongly connected") : tr("connected");
    if (in.connectivity.connected) {
        html += QStringLiteral("<p style='margin:2px 0'>%1 %2</p>").arg(mark(true), connectedWord);
    } else {
        html += QStringLiteral("<p style='margin:2px 0'>%1 <b>%2 %3</b><br/>%4</p>")
                    .arg(mark(false), tr("not"), connectedWord, toQString(in.connectivity.message).toHtmlEscaped());
        if (!in.connectivity.offending.empty())
            html += QStringLiteral("<p style='margin:2px 0;color:#c01c28'>%1</p>")
                        .arg(tr("offending nodes (red): %1").arg(nodeList(in.connectivity.offending)));
    }
    if (!mRunTitle.isEmpty())
        html += QStringLiteral("<h3 style='margin:8px 0 2px 0'>%1</h3>").arg(mRunTitle.toHtmlEscaped());
    for (const MatrixReport &m : in.matrices) {
        html += QStringLiteral("<p style='margin:6px 0 2px 0'><b>%1</b> = %2 <i>(%3)</i></p>")
                    .arg(m.name, m.scheme.toHtmlEscaped(), m.role);
        if (!m.error.isEmpty())
            html += QStringLiteral("<p style='margin:2px 0;color:#c01c28'>%1 %2</p>")
                        .arg(mark(false), m.error.toHtmlEscaped());
        if (m.matrix.size() == 0)
            continue;
        if (!m.analysed) {
            html += QStringLiteral("<p style='margin:2px 0'>%1</p>")
                        .arg(tr("spectral facts skipped for n > %1").arg(kInspectorSpectrumLimit));
            continue;
        }
        const WeightFacts &f = m.facts;
        html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
        auto row = [&](const QString &a, const QString &b) {
            html += QStringLiteral("<tr><td>%1</td><td style='padding-left:8px'>%2</td></tr>").arg(a, b);
        };
        row(mark(f.rowStochastic) + QStringLiteral(" ") + tr("row-stochastic"), QString());
        row(mark(f.columnStochastic) + QStringLiteral(" ") + tr("column-stochastic"), QString());
        row(mark(f.symmetric) + QStringLiteral(" ") + tr("symmetric"), QString());
        if (f.symmetric)
            row(mark(f.psd) + QStringLiteral(" ") + tr("positive semidefinite"), QString());
        // Singular values and spectral radii of a stochastic matrix are measured against its
        // largest singular value, at least 1: σ₂ = 1e-16 of a complete graph is 0.
        const double scale = std::max(1.0, f.spectralRadius);
        row(tr("spectral radius"), numberText(withoutRoundOff(f.spectralRadius, scale), 4));
        row(tr("σ₂ (2nd singular value)"), numberText(withoutRoundOff(f.sigma2, scale), 4));
        row(tr("spectral gap 1 − σ₂"), numberText(withoutRoundOff(f.spectralGap, scale), 4));
        row(tr("ρ(%1 − 11ᵀ/n)").arg(m.name), numberText(withoutRoundOff(f.consensusRate, scale), 4));
        html += QStringLiteral("</table>");
        if (m.perron.size() > 0)
            html += QStringLiteral("<p style='margin:2px 0'>%1:<br/>%2</p>").arg(m.perronName, vectorText(m.perron));
    }
    return html;
}

bool InspectorWidget::setMatrixEntry(int matrix, int row, int column, double value, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (matrix < 0 || matrix >= mInspection.matrices.size())
        return fail(tr("no such matrix"));
    const MatrixReport &report = mInspection.matrices[matrix];
    const Graph &graph = mDocument->graphDocument()->graph();
    const int n = graph.nodeCount();
    if (report.matrix.rows() != n || report.matrix.cols() != n)
        return fail(tr("%1 could not be built: %2").arg(report.name, report.error));
    if (row < 0 || column < 0 || row >= n || column >= n)
        return fail(tr("entry (%1, %2) is outside the %3 × %3 matrix").arg(row).arg(column).arg(n));
    if (row != column && !graph.hasEdge(column, row))
        return fail(tr("%1 sends nothing to %2 (no edge %1 → %2): the entry must stay 0").arg(column).arg(row));
    if (!std::isfinite(value) || value < 0)
        return fail(tr("weights are finite and nonnegative"));
    Eigen::MatrixXd w = report.matrix;
    if (w(row, column) == value)
        return true;
    w(row, column) = value;
    Json rows = Json::array();
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        Json r = Json::array();
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            r.push_back(w(i, j));
        rows.push_back(std::move(r));
    }
    const Json explicitMatrix{{"scheme", "matrix"}, {"matrix", std::move(rows)}};

    // Where the inspected weights come from: the run's own, else the graph's.
    const int run = mRun >= 0 && mRun < mDocument->runCount() ? mRun : (mDocument->runCount() > 0 ? 0 : -1);
    const Json runJson = run >= 0 ? mDocument->run(run) : Json();
    const std::string pointer = runJson.is_object() && runJson.contains("weights")
                                    ? "/runs/" + std::to_string(run) + "/weights"
                                    : std::string("/graph/weights");
    Json weights;
    if (mInspection.matrices.size() == 1) {
        weights = explicitMatrix;
    } else {
        const Json current = run >= 0 ? mDocument->runWeights(run)
                                      : Json{{"row", {{"scheme", "uniform"}}}, {"column", {{"scheme", "uniform"}}}};
        const bool split = current.is_object() && (current.contains("row") || current.contains("column"));
        Json rowSpec = split ? current.value("row", Json{{"scheme", "uniform"}}) : current;
        Json columnSpec = split ? current.value("column", Json{{"scheme", "uniform"}}) : current;
        (matrix == 0 ? rowSpec : columnSpec) = explicitMatrix;
        weights = Json{{"row", rowSpec}, {"column", columnSpec}};
    }
    mDocument->setValue(pointer, weights, tr("Edit weight %1(%2, %3)").arg(report.name).arg(row).arg(column));
    refresh(); // the verdicts follow at once
    return true;
}

void InspectorWidget::showMatrixDialog()
{
    if (QDialog *dialog = createMatrixDialog())
        dialog->exec();
}

void InspectorWidget::showMatrixDialogForEdge(int from, int to)
{
    if (QDialog *dialog = createMatrixDialog(0, to, from))
        dialog->exec();
}

namespace {

QString verdicts(const MatrixReport &m)
{
    QStringList parts;
    if (!m.error.isEmpty())
        parts << QStringLiteral("<span style='color:#c01c28'>✗ %1</span>").arg(m.error.toHtmlEscaped());
    if (m.matrix.size() > 0 && m.analysed) {
        const WeightFacts &f = m.facts;
        parts << QStringLiteral("%1 %2 &nbsp; %3 %4 &nbsp; %5 %6")
                     .arg(mark(f.rowStochastic), QObject::tr("row-stochastic"), mark(f.columnStochastic),
                          QObject::tr("column-stochastic"), mark(f.symmetric), QObject::tr("symmetric"));
        parts << QObject::tr("σ₂ = %1, spectral gap %2, ρ(%3 − 11ᵀ/n) = %4")
                     .arg(numberText(f.sigma2, 4), numberText(f.spectralGap, 4), m.name,
                          numberText(f.consensusRate, 4));
    } else if (m.matrix.size() > 0) {
        parts << QObject::tr("spectral facts skipped for n > %1").arg(kInspectorSpectrumLimit);
    }
    return parts.join(QStringLiteral("<br/>"));
}

/** Shows W in `table` (resized to it): "·" for a zero, the value in Qt::UserRole, editable on the
 *  diagonal and on the graph's edges only. */
void fillMatrixTable(QTableWidget *table, const Eigen::MatrixXd &w, const Graph &graph)
{
    if (table->rowCount() != int(w.rows()) || table->columnCount() != int(w.cols())) {
        table->clear();
        table->setRowCount(int(w.rows()));
        table->setColumnCount(int(w.cols()));
        QStringList headers;
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            headers << QString::number(j);
        table->setHorizontalHeaderLabels(headers);
        table->setVerticalHeaderLabels(headers);
    }
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            QTableWidgetItem *item = table->item(int(i), int(j));
            if (!item) {
                item = new QTableWidgetItem;
                item->setTextAlignment(Qt::AlignCenter);
                table->setItem(int(i), int(j), item);
            }
            item->setText(w(i, j) == 0.0 ? QStringLiteral("·") : numberText(w(i, j), 4));
            item->setData(Qt::UserRole, w(i, j));
            const bool editable = i == j || graph.hasEdge(int(j), int(i));
            item->setFlags(editable ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable
                                    : Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            item->setToolTip(editable ? InspectorWidget::tr("weight %1 gives to %2 (double-click to edit)").arg(i).arg(j)
                                      : InspectorWidget::tr("no edge %1 → %2").arg(j).arg(i));
        }
}

/** W as CSV, every entry with 17 significant digits (round-trips exactly). */
QString matrixCsv(const Eigen::MatrixXd &w)
{
    QString csv;
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        QStringList row;
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            row << QString::number(w(i, j), 'g', 17);
        csv += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace

QDialog *InspectorWidget::createMatrixDialog(int matrix, int focusRow, int focusColumn)
{
    if (mInspection.matrices.isEmpty())
        return nullptr;
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Weight matrices"));
    auto *layout = new QVBoxLayout(dialog);
    auto *choice = new QComboBox(dialog);
    for (const MatrixReport &m : mInspection.matrices)
        choice->addItem(QStringLiteral("%1 (%2, %3)").arg(m.name, m.scheme, m.role));
    choice->setObjectName(QStringLiteral("matrixChoice"));
    layout->addWidget(choice);
    auto *note = new QLabel(tr("Entry (i, j) is the weight agent i gives to what agent j sends. Double-click an "
                               "entry of an edge or of the diagonal to edit it: the run then mixes with this "
                               "explicit matrix (Undo restores its scheme)."),
                            dialog);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto *table = new QTableWidget(dialog);
    table->setObjectName(QStringLiteral("matrixTable"));
    table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                           | QAbstractItemView::AnyKeyPressed);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table, 1);
    auto *verdict = new QLabel(dialog);
    verdict->setObjectName(QStringLiteral("matrixVerdicts"));
    verdict->setWordWrap(true);
    verdict->setTextFormat(Qt::RichText);
    layout->addWidget(verdict);
    auto *problem = new QLabel(dialog);
    problem->setObjectName(QStringLiteral("matrixEditError"));
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color:#c01c28"));
    layout->addWidget(problem);

    auto fill = [this, table, verdict, choice] {
        const int k = choice->currentIndex();
        if (k < 0 || k >= mInspection.matrices.size())
            return;
        const MatrixReport &m = mInspection.matrices[k];
        const Eigen::MatrixXd &w = m.matrix;
        const Graph &graph = mDocument->graphDocument()->graph();
        const QSignalBlocker block(table);
        const int current = table->currentRow(), currentColumn = table->currentColumn();
        fillMatrixTable(table, w, graph);
        if (current >= 0 && currentColumn >= 0)
            table->setCurrentCell(current, currentColumn);
        verdict->setText(verdicts(m));
    };
    connect(choice, &QComboBox::currentIndexChanged, table, [table, fill] {
        table->setRowCount(0);
        fill();
    });
    connect(this, &InspectorWidget::inspected, dialog, fill);
    connect(table, &QTableWidget::itemChanged, dialog, [this, table, choice, problem, fill](QTableWidgetItem *item) {
        bool ok = false;
        const QString text = item->text().trimmed();
        const double value = text == QStringLiteral("·") || text.isEmpty() ? 0.0 : QLocale().toDouble(text, &ok);
        double parsed = value;
        if (!ok && text != QStringLiteral("·") && !text.isEmpty()) {
            parsed = text.toDouble(&ok); // "0.25" whatever the locale
            if (!ok) {
                problem->setText(tr("(%1, %2): “%3” is not a number").arg(item->row()).arg(item->column()).arg(text));
                fill();
                return;
            }
        }
        QString error;
        if (!setMatrixEntry(choice->currentIndex(), item->row(), item->column(), parsed, &error)) {
            problem->setText(tr("(%1, %2): %3").arg(item->row()).arg(item->column()).arg(error));
            fill();
            return;
        }
        problem->clear();
        table->setCurrentCell(item->row(), item->column());
        fill();
    });
    choice->setCurrentIndex(std::clamp(matrix, 0, int(mInspection.matrices.size()) - 1));
    fill();
    if (focusRow >= 0 && focusColumn >= 0 && focusRow < table->rowCount() && focusColumn < table->columnCount()) {
        table->setCurrentCell(focusRow, focusColumn);
        table->scrollToItem(table->item(focusRow, focusColumn), QAbstractItemView::PositionAtCenter);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QUndoStack *stack = mDocument->undoStack();
    auto *undo = buttons->addButton(tr("Undo"), QDialogButtonBox::ActionRole);
    undo->setAutoDefault(false); // Enter after typing an entry must not undo it
    connect(undo, &QPushButton::clicked, stack, &QUndoStack::undo);
    auto *copy = buttons->addButton(tr("Copy as CSV"), QDialogButtonBox::ActionRole);
    copy->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Close)->setDefault(true);
    connect(copy, &QPushButton::clicked, dialog, [this, choice] {
        QApplication::clipboard()->setText(matrixCsv(mInspection.matrices[choice->currentIndex()].matrix));
    });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(680, 520);
    return dialog;
}

} // namespace dplab
