// SPDX-License-Identifier: GPL-3.0-or-later
//
// WeightsWidget: the graph kind (directed or not) and the weight scheme(s) of the experiment
// panel — one scheme W for an undirected graph, a row-stochastic R and a column-stochastic C for
// a directed one — with each scheme's parameters in a form generated from its descriptor.
//
// Threading: GUI thread.
#pragma once

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;

namespace dplab {

class ExperimentDocument;
class ParamForm;

class WeightsWidget : public QGroupBox
{
    Q_OBJECT

public:
    explicit WeightsWidget(ExperimentDocument *document, QWidget *parent = nullptr);

    /** Shows the document's graph kind and weights (without writing back). */
    void refresh();

private:
    void writeWeights();

    ExperimentDocument *mDocument;
    bool mRefreshing = false;
    QString mRowSchemeForm, mColumnSchemeForm; ///< scheme ids the forms are built for
    QCheckBox *mDirected;
    QLabel *mRowSchemeLabel;
    QComboBox *mRowScheme;
    ParamForm *mRowSchemeParams;
    QLabel *mColumnSchemeLabel;
    QComboBox *mColumnScheme;
    ParamForm *mColumnSchemeParams;
};

} // namespace dplab
