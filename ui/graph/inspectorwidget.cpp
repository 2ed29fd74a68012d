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
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBrowser>

#include <algorithm>
#include <QTimer>
#include <QVBoxLayout>

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
        parts << formatNumber(withoutRoundOff(v[i], scale), 3);
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
        row(tr("spectral radius"), formatNumber(withoutRoundOff(f.spectralRadius, scale), 4));
        row(tr("σ₂ (2nd singular value)"), formatNumber(withoutRoundOff(f.sigma2, scale), 4));
        row(tr("spectral gap 1 − σ₂"), formatNumber(withoutRoundOff(f.spectralGap, scale), 4));
        row(tr("ρ(%1 − 11ᵀ/n)").arg(m.name), formatNumber(withoutRoundOff(f.consensusRate, scale), 4));
        html += QStringLiteral("</table>");
        if (m.perron.size() > 0)
            html += QStringLiteral("<p style='margin:2px 0'>%1:<br/>%2</p>").arg(m.perronName, vectorText(m.perron));
    }
    return html;
}

void InspectorWidget::showMatrixDialog()
{
    if (mInspection.matrices.isEmpty())
        return;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Weight matrices"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *choice = new QComboBox(&dialog);
    for (const MatrixReport &m : mInspection.matrices)
        choice->addItem(QStringLiteral("%1 (%2, %3)").arg(m.name, m.scheme, m.role));
    layout->addWidget(choice);
    auto *note = new QLabel(tr("Entry (i, j) is the weight agent i gives to what agent j sends."), &dialog);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto *table = new QTableWidget(&dialog);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table, 1);
    auto fill = [this, table](int k) {
        const Eigen::MatrixXd &w = mInspection.matrices[k].matrix;
        table->clear();
        table->setRowCount(int(w.rows()));
        table->setColumnCount(int(w.cols()));
        QStringList headers;
        for (Eigen::Index j = 0; j < w.cols(); ++j)
            headers << QString::number(j);
        table->setHorizontalHeaderLabels(headers);
        table->setVerticalHeaderLabels(headers);
        for (Eigen::Index i = 0; i < w.rows(); ++i)
            for (Eigen::Index j = 0; j < w.cols(); ++j) {
                auto *item = new QTableWidgetItem(w(i, j) == 0.0 ? QStringLiteral("·") : formatNumber(w(i, j), 4));
                item->setTextAlignment(Qt::AlignCenter);
                table->setItem(int(i), int(j), item);
            }
    };
    connect(choice, &QComboBox::currentIndexChanged, table, fill);
    fill(0);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    auto *copy = buttons->addButton(tr("Copy as CSV"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, &dialog, [this, choice] {
        const Eigen::MatrixXd &w = mInspection.matrices[choice->currentIndex()].matrix;
        QString csv;
        for (Eigen::Index i = 0; i < w.rows(); ++i) {
            QStringList row;
            for (Eigen::Index j = 0; j < w.cols(); ++j)
                row << QString::number(w(i, j), 'g', 17);
            csv += row.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
        QApplication::clipboard()->setText(csv);
    });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(640, 480);
    dialog.exec();
}

} // namespace dplab
