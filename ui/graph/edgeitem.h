// SPDX-License-Identifier: GPL-3.0-or-later
//
// EdgeItem: the picture of one edge between two NodeItems, with an arrowhead when the graph is
// directed (an edge j -> i means j sends to i). When both j -> i and i -> j exist the two are
// drawn side by side. An optional label shows the mixing weight(s) on demand.
//
// Threading: GUI thread.
#pragma once

#include "dplab/graph/graph.h"

#include <QGraphicsItem>

namespace dplab {

class NodeItem;

class EdgeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 2 };

    EdgeItem(NodeItem *source, NodeItem *destination, Edge edge, bool directed);
    ~EdgeItem() override;

    int type() const override { return Type; }
    const Edge &edge() const { return mEdge; }
    NodeItem *source() const { return mSource; }
    NodeItem *destination() const { return mDestination; }

    /** Draw beside the reverse edge (directed graphs with both directions). */
    void setParallelOffset(bool offset);
    void setLabel(const QString &label);
    /** Recomputes the line from the two node positions. */
    void adjust();
    const QString &label() const { return mLabel; }
    /** Whether the label is drawn (a label that would cover another is hidden). */
    void setLabelVisible(bool visible);
    /** Where the label is drawn, in scene coordinates (empty without a label). */
    QRectF labelSceneRect() const;
    bool isLabelVisible() const { return !mLabel.isEmpty() && mLabelVisible; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QLineF labelLine() const;

    NodeItem *mSource;
    NodeItem *mDestination;
    Edge mEdge;
    bool mDirected;
    bool mOffset = false;
    QString mLabel;
    bool mLabelVisible = true;
    QLineF mLine;
};

} // namespace dplab
