// SPDX-License-Identifier: GPL-3.0-or-later
#include "addedgecommand.h"

#include "graphdocument.h"

#include <QCoreApplication>

namespace dplab {

AddEdgeCommand::AddEdgeCommand(GraphDocument *document, Edge edge, QUndoCommand *parent)
    : QUndoCommand(parent)
    , mDocument(document)
    , mEdge(edge)
    , mGenerator(document->generator())
{
    setText(QCoreApplication::translate("Undo Commands", "Add edge %1 → %2").arg(edge.from).arg(edge.to));
}

void AddEdgeCommand::undo()
{
    mDocument->eraseEdge(mEdge);
    mDocument->setGenerator(mGenerator);
}

void AddEdgeCommand::redo()
{
    mDocument->setGenerator(Json());
    mDocument->insertEdge(mEdge);
}

} // namespace dplab
