// SPDX-License-Identifier: GPL-3.0-or-later
#include "replacegraphcommand.h"

#include "graphdocument.h"

namespace dplab {

ReplaceGraphCommand::ReplaceGraphCommand(GraphDocument *document, Graph graph, Json generator,
                                         const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , mDocument(document)
    , mBefore(document->graph())
    , mGeneratorBefore(document->generator())
    , mAfter(std::move(graph))
    , mGeneratorAfter(std::move(generator))
{
}

void ReplaceGraphCommand::undo()
{
    mDocument->resetGraph(mBefore, mGeneratorBefore);
}

void ReplaceGraphCommand::redo()
{
    mDocument->resetGraph(mAfter, mGeneratorAfter);
}

} // namespace dplab
