// SPDX-License-Identifier: GPL-3.0-or-later
#include "movenodescommand.h"

#include "graphdocument.h"

#include <QCoreApplication>

namespace dplab {

MoveNodesCommand::MoveNodesCommand(GraphDocument *document, QVector<int> nodes, QVector<NodePosition> from,
                                   QVector<NodePosition> to, QUndoCommand *parent)
    : QUndoCommand(parent)
    , mDocument(document)
    , mNodes(std::move(nodes))
    , mFrom(std::move(from))
    , mTo(std::move(to))
{
    setText(QCoreApplication::translate("Undo Commands", "Move %n node(s)", nullptr, int(mNodes.size())));
}

void MoveNodesCommand::undo()
{
    mDocument->setNodePositions(mNodes, mFrom);
}

void MoveNodesCommand::redo()
{
    mDocument->setNodePositions(mNodes, mTo);
}

} // namespace dplab
