// SPDX-License-Identifier: GPL-3.0-or-later
//
// Undo command: append one node at a position. Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <QUndoCommand>

namespace dplab {

class GraphDocument;

class AddNodeCommand : public QUndoCommand
{
public:
    AddNodeCommand(GraphDocument *document, NodePosition position, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    GraphDocument *mDocument;
    NodePosition mPosition;
    Json mGenerator; ///< the generator before the edit (an edited graph has none)
};

} // namespace dplab
