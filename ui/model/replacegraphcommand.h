// SPDX-License-Identifier: GPL-3.0-or-later
//
// Undo command: replace the whole graph (delete with re-indexing, generator, import,
// directed/undirected switch). Keeps both graphs; DPLab graphs are small.
// Threading: GUI thread.
#pragma once

#include "dplab/common/params.h"
#include "dplab/graph/graph.h"

#include <QUndoCommand>

namespace dplab {

class GraphDocument;

class ReplaceGraphCommand : public QUndoCommand
{
public:
    ReplaceGraphCommand(GraphDocument *document, Graph graph, Json generator, const QString &text,
                        QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    GraphDocument *mDocument;
    Graph mBefore;
    Json mGeneratorBefore;
    Graph mAfter;
    Json mGeneratorAfter;
};

} // namespace dplab
