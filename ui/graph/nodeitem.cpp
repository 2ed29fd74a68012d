// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodeitem.h"
#include "presentationscale.h"

#include "edgeitem.h"
#include "graphscene.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace dplab {

NodeItem::NodeItem(int index)
    : mIndex(index)
{
    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setZValue(2);
    setAcceptHoverEvents(true);
    setToolTip(QObject::tr("Agent %1").arg(index));
}

void NodeItem::setIndex(int index)
{
    mIndex = index;
    setToolTip(QObject::tr("Agent %1").arg(index));
    update();
}

void NodeItem::addEdge(EdgeItem *edge)
{
    mEdges.push_back(edge);
}

void NodeItem::removeEdge(EdgeItem *edge)
{
    mEdges.removeAll(edge);
}

void NodeItem::setHighlighted(bool highlighted)
{
    if (mHighlighted == highlighted)
        return;
    mHighlighted = highlighted;
    update();
}

void NodeItem::setCaption(const QString &caption)
{
    if (mCaption == caption)
        return;
    prepareGeometryChange();
    mCaption = caption;
    update();
}

QRectF NodeItem::boundingRect() const
{
    const qreal m = 3.0;
    QRectF r(-Radius - m, -Radius - m, 2 * (Radius + m), 2 * (Radius + m));
    if (!mCaption.isEmpty())
        r = r.united(QRectF(-40, Radius, 80, 18));
    return r;
}

QPainterPath NodeItem::shape() const
{
    QPainterPath path;
    path.addEllipse(QPointF(0, 0), Radius, Radius);
    return path;
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const bool selected = option->state & QStyle::State_Selected;
    const QColor fill = mHighlighted ? QColor(0xf4, 0xb6, 0xb6) : QColor(0xdc, 0xea, 0xf7);
    const QColor border = mHighlighted ? QColor(0xc0, 0x1c, 0x28) : QColor(0x1f, 0x3b, 0x57);
    painter->setRenderHint(QPainter::Antialiasing);
    if (selected) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0x3d, 0x8e, 0xe0, 90));
        painter->drawEllipse(QPointF(0, 0), Radius + 3, Radius + 3);
    }
    painter->setPen(QPen(selected ? QColor(0x1c, 0x71, 0xd8) : border, selected ? 2.5 : 1.5));
    // The index fills the circle whatever the zoom (the item is scaled, see GraphScene).
    painter->setBrush(fill);
    painter->drawEllipse(QPointF(0, 0), Radius, Radius);
    QFont font = painter->font();
    font.setBold(true);
    font.setPointSizeF(10);
    painter->setFont(font);
    painter->setPen(border);
    painter->drawText(QRectF(-Radius, -Radius, 2 * Radius, 2 * Radius), Qt::AlignCenter, QString::number(mIndex));
    if (!mCaption.isEmpty()) {
        font.setBold(false);
        font.setPointSizeF(8 * PresentationScale::factor());
        painter->setFont(font);
        painter->setPen(QColor(0x44, 0x44, 0x44));
        painter->drawText(QRectF(-40, Radius, 80, 18), Qt::AlignHCenter | Qt::AlignTop, mCaption);
    }
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant &value)
{
    if (change == ItemPositionHasChanged) {
        for (EdgeItem *edge : std::as_const(mEdges))
            edge->adjust();
        if (auto *graphScene = qobject_cast<GraphScene *>(scene()))
            graphScene->nodeItemMoved(this);
    }
    return QGraphicsItem::itemChange(change, value);
}

} // namespace dplab
