// SPDX-License-Identifier: GPL-3.0-or-later
//
// Undo command: move nodes (a drag of the selection, or a layout of the whole graph).
// Threading: GUI thread.
#pragma once

#include "dplab/graph/graph.h"

#include <QUndoCommand>
#include <QVector>

namespace dplab {

class GraphDocument;

class MoveNodesCommand : public QUndoCommand
{
public:
    MoveNodesCommand(GraphDocument *document, QVector<int> nodes, QVector<NodePosition> from,
                     QVector<NodePosition> to, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    GraphDocument *mDocument;
    QVector<int> mNodes;
    QVector<NodePosition> mFrom;
    QVector<NodePosition> mTo;
};

} // namespace dplab
