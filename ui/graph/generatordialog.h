// SPDX-License-Identifier: GPL-3.0-or-later
//
// GeneratorDialog: builds a graph with any core generator (generatorDescriptors(): ring, path,
// star, complete, grid/torus, Erdős–Rényi, Watts–Strogatz, exponential, random strongly
// connected digraph, the paper-003 ring family, ...) from a form generated from its
// parameters, with a live preview of the result (nodes, edges, connectivity, σ₂ of the default
// weights) or the error naming the parameter.
//
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;

namespace dplab {

class ParamForm;

class GeneratorDialog : public QDialog
{
    Q_OBJECT

public:
    explicit GeneratorDialog(QWidget *parent = nullptr);

    /** Selects a generator and shows `spec`'s values (e.g. the document's current generator). */
    void setSpec(const Json &spec);
    /** The generator spec {"type": id, ...params}. */
    Json spec() const;
    /** The graph the spec generates (valid after accept()). */
    const Graph &graph() const { return mGraph; }
    QComboBox *typeBox() const { return mType; }

private:
    void onTypeChanged();
    void updatePreview();

    QComboBox *mType;
    QLabel *mExplanation;
    ParamForm *mForm;
    QLabel *mPreview;
    QDialogButtonBox *mButtons;
    Graph mGraph;
};

} // namespace dplab
