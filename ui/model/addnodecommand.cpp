// SPDX-License-Identifier: GPL-3.0-or-later
#include "addnodecommand.h"

#include "graphdocument.h"

#include <QCoreApplication>

namespace dplab {

AddNodeCommand::AddNodeCommand(GraphDocument *document, NodePosition position, QUndoCommand *parent)
    : QUndoCommand(parent)
    , mDocument(document)
    , mPosition(position)
    , mGenerator(document->generator())
{
    setText(QCoreApplication::translate("Undo Commands", "Add node"));
}

void AddNodeCommand::undo()
{
    mDocument->removeLastNode();
    mDocument->setGenerator(mGenerator);
}

void AddNodeCommand::redo()
{
    mDocument->setGenerator(Json());
    mDocument->appendNode(mPosition);
}

} // namespace dplab
