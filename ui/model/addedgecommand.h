// SPDX-License-Identifier: GPL-3.0-or-later
//
// Undo command: add one edge (from -> to; undirected graphs store {min, max}).
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <QUndoCommand>

namespace dplab {

class GraphDocument;

class AddEdgeCommand : public QUndoCommand
{
public:
    AddEdgeCommand(GraphDocument *document, Edge edge, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    GraphDocument *mDocument;
    Edge mEdge;
    Json mGenerator;
};

} // namespace dplab
