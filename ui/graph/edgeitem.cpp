// SPDX-License-Identifier: GPL-3.0-or-later
#include "edgeitem.h"

#include "nodeitem.h"
#include "presentationscale.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace dplab {

namespace {

constexpr qreal kArrowSize = 10.0;
constexpr qreal kOffset = 5.0;

QRectF labelRect(const QLineF &line, const QString &label, const QFontMetricsF &metrics)
{
    const QPointF mid = line.pointAt(0.5);
    const qreal w = metrics.horizontalAdvance(label) + 6;
    const qreal h = metrics.height() + 2;
    return QRectF(mid.x() - w / 2, mid.y() - h / 2, w, h);
}

QFont labelFont()
{
    QFont font;
    font.setPointSizeF(8.0 * PresentationScale::factor());
    return font;
}

} // namespace

EdgeItem::EdgeItem(NodeItem *source, NodeItem *destination, Edge edge, bool directed)
    : mSource(source)
    , mDestination(destination)
    , mEdge(edge)
    , mDirected(directed)
{
    setFlags(ItemIsSelectable);
    setZValue(1);
    mSource->addEdge(this);
    mDestination->addEdge(this);
    setToolTip(directed ? QObject::tr("%1 sends to %2").arg(edge.from).arg(edge.to)
                        : QObject::tr("%1 — %2").arg(edge.from).arg(edge.to));
    adjust();
}

EdgeItem::~EdgeItem()
{
    mSource->removeEdge(this);
    mDestination->removeEdge(this);
}

void EdgeItem::setParallelOffset(bool offset)
{
    if (mOffset == offset)
        return;
    mOffset = offset;
    adjust();
}

void EdgeItem::setLabel(const QString &label)
{
    if (mLabel == label)
        return;
    prepareGeometryChange();
    mLabel = label;
    update();
}

void EdgeItem::adjust()
{
    const QLineF centres(mapFromItem(mSource, 0, 0), mapFromItem(mDestination, 0, 0));
    const qreal length = centres.length();
    prepareGeometryChange();
    const qreal radius = NodeItem::Radius * mSource->scale();
    if (length <= 2 * radius + 1) {
        mLine = QLineF(centres.p1(), centres.p1());
        return;
    }
    QPointF shift(0, 0);
    if (mOffset) {
        const QPointF unit = (centres.p2() - centres.p1()) / length;
        shift = QPointF(unit.y(), -unit.x()) * kOffset; // to the right of the direction of travel
    }
    const QPointF edgeOffset = (centres.p2() - centres.p1()) * (radius / length);
    mLine = QLineF(centres.p1() + edgeOffset + shift, centres.p2() - edgeOffset + shift);
}

void EdgeItem::setLabelVisible(bool visible)
{
    if (mLabelVisible == visible)
        return;
    mLabelVisible = visible;
    update();
}

QLineF EdgeItem::labelLine() const
{
    QLineF line = mLine;
    if (mOffset && mLine.length() > 0) { // further out, so the two labels of a pair do not overlap
        const QPointF unit = (mLine.p2() - mLine.p1()) / mLine.length();
        line.translate(QPointF(unit.y(), -unit.x()) * 8.0);
    }
    return line;
}

QRectF EdgeItem::labelSceneRect() const
{
    if (mLabel.isEmpty())
        return QRectF();
    return mapRectToScene(labelRect(labelLine(), mLabel, QFontMetricsF(labelFont())));
}

QRectF EdgeItem::boundingRect() const
{
    const qreal extra = kArrowSize + 4;
    QRectF r = QRectF(mLine.p1(), mLine.p2()).normalized().adjusted(-extra, -extra, extra, extra);
    if (!mLabel.isEmpty())
        r = r.united(labelRect(mLine, mLabel, QFontMetricsF(labelFont())).adjusted(-2, -2, 2, 2));
    return r;
}

QPainterPath EdgeItem::shape() const
{
    QPainterPath path(mLine.p1());
    path.lineTo(mLine.p2());
    QPainterPathStroker stroker;
    stroker.setWidth(10);
    return stroker.createStroke(path);
}

void EdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    if (mLine.length() < 1)
        return;
    const bool selected = option->state & QStyle::State_Selected;
    const QColor colour = selected ? QColor(0x1c, 0x71, 0xd8) : QColor(0x4a, 0x55, 0x68);
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal f = PresentationScale::factor();
    painter->setPen(QPen(colour, (selected ? 2.6 : 1.6) * f, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    QLineF body = mLine;
    if (mDirected && body.length() > kArrowSize)
        body.setLength(body.length() - kArrowSize * 0.8);
    painter->drawLine(body);
    if (mDirected) {
        const QPointF tip = mLine.p2();
        const QPointF u = (mLine.p2() - mLine.p1()) / mLine.length();
        const QPointF normal(-u.y(), u.x());
        const QPointF base = tip - u * kArrowSize;
        const QPointF a = base + normal * (kArrowSize * 0.5);
        const QPointF b = base - normal * (kArrowSize * 0.5);
        painter->setPen(Qt::NoPen);
        painter->setBrush(colour);
        painter->drawPolygon(QPolygonF() << tip << a << b);
    }
    if (!mLabel.isEmpty() && mLabelVisible) {
        const QFont font = labelFont();
        painter->setFont(font);
        const QRectF r = labelRect(labelLine(), mLabel, QFontMetricsF(font));
        painter->setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 0.8));
        painter->setBrush(QColor(255, 255, 255, 230));
        painter->drawRoundedRect(r, 3, 3);
        painter->setPen(QColor(0x22, 0x22, 0x22));
        painter->drawText(r, Qt::AlignCenter, mLabel);
    }
}

} // namespace dplab
