// SPDX-License-Identifier: GPL-3.0-or-later
//
// NodeItem: the picture of one agent in the graph editor. It mirrors the document (index,
// position) and never holds topology: moving it only re-draws its edges;
// GraphScene turns a finished drag into a MoveNodesCommand.
//
// Threading: GUI thread.
#pragma once

#include <QGraphicsItem>
#include <QVector>

namespace dplab {

class EdgeItem;

class NodeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 1 };
    static constexpr qreal Radius = 16.0;

    explicit NodeItem(int index);

    int type() const override { return Type; }
    int index() const { return mIndex; }
    void setIndex(int index);

    void addEdge(EdgeItem *edge);
    void removeEdge(EdgeItem *edge);
    const QVector<EdgeItem *> &edges() const { return mEdges; }

    /** Marks the node as part of the offending set (not connected / not reachable). */
    void setHighlighted(bool highlighted);
    bool isHighlighted() const { return mHighlighted; }
    /** A second line under the index (e.g. the Perron entry); empty for none. */
    void setCaption(const QString &caption);

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant &value) override;

private:
    int mIndex;
    bool mHighlighted = false;
    QString mCaption;
    QVector<EdgeItem *> mEdges;
};

} // namespace dplab
