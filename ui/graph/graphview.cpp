// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview.h"

#include "graphscene.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

namespace dplab {

namespace {
constexpr qreal kMinZoom = 0.05;
constexpr qreal kMaxZoom = 20.0;
} // namespace

GraphView::GraphView(GraphScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , mScene(scene)
{
    setRenderHint(QPainter::Antialiasing);
    setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setDragMode(QGraphicsView::RubberBandDrag);
    setBackgroundBrush(QColor(0xfb, 0xfc, 0xfd));
    setMinimumSize(240, 200);
    // The scene is much larger than the graph (room to drag nodes out): pan with the middle
    // button or zoom instead of showing scroll bars that suggest a page.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(scene, &GraphScene::rebuilt, this, [this] {
        if (mAutoFit)
            fitGraph();
    });
}

qreal GraphView::zoom() const
{
    return transform().m11();
}

void GraphView::zoomIn()
{
    scaleBy(1.25);
}

void GraphView::zoomOut()
{
    scaleBy(1 / 1.25);
}

void GraphView::resetZoom()
{
    resetTransform();
    mAutoFit = false;
}

void GraphView::fitGraph()
{
    QRectF bounds = mScene->itemsBoundingRect();
    if (bounds.isEmpty())
        bounds = QRectF(-100, -100, 200, 200);
    bounds.adjust(-30, -30, 30, 30);
    resetTransform();
    fitInView(bounds, Qt::KeepAspectRatio);
    // Do not blow tiny graphs up beyond 2.5×, nor shrink below the minimum.
    const qreal z = zoom();
    if (z > 2.5)
        scale(2.5 / z, 2.5 / z);
    else if (z < kMinZoom)
        scale(kMinZoom / z, kMinZoom / z);
    centerOn(bounds.center());
    mAutoFit = true;
}

void GraphView::scaleBy(qreal factor)
{
    const qreal z = zoom() * factor;
    if (z < kMinZoom || z > kMaxZoom)
        return;
    scale(factor, factor);
    mAutoFit = false;
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    const qreal steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    scaleBy(std::pow(1.2, steps));
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::MiddleButton) {
        mPanning = true;
        mPanStart = event->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseMoveEvent(QMouseEvent *event)
{
    if (mPanning) {
        const QPoint p = event->position().toPoint();
        const QPoint delta = p - mPanStart;
        mPanStart = p;
        mAutoFit = false;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent *event)
{
    if (mPanning && event->button() == Qt::MiddleButton) {
        mPanning = false;
        unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void GraphView::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Delete) || event->key() == Qt::Key_Backspace) {
        mScene->deleteSelection();
        event->accept();
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (mAutoFit)
        fitGraph();
}

} // namespace dplab
