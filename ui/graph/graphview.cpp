// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview.h"

#include "graphscene.h"
#include "nodeitem.h"
#include "presentationscale.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dplab {

namespace {
constexpr qreal kMinZoom = 0.005; // a 1000-node circle is ~10⁴ scene units wide
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
    // Low enough that the window keeps 720 px at 200 % (menu, toolbars, the results' two rows
    // of plots and the status bar, all twice as tall, left the editor 180 px): Fit shows the
    // whole graph at any size.
    setMinimumSize(240, 120);
    // The scene is much larger than the graph (room to drag nodes out): pan with the middle
    // button or zoom instead of showing scroll bars that suggest a page.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(PresentationScale::instance(), &PresentationScale::changed, this, &GraphView::updateNodeScale);
    // Dense graphs: say that the edges are thinned (the layer draws a subset, no arrows).
    // A child of the view, not of the viewport: scrolling the viewport moves its children.
    mDenseNote = new QLabel(this);
    mDenseNote->setObjectName(QStringLiteral("denseNote"));
    mDenseNote->setStyleSheet(QStringLiteral("QLabel { background: rgba(255,255,255,220); color: #444; "
                                             "border: 1px solid #ccc; border-radius: 3px; padding: 2px 6px; }"));
    mDenseNote->hide();
    connect(scene, &GraphScene::rebuilt, this, &GraphView::updateDenseNote);
    connect(scene, &GraphScene::denseEdgesChanged, this, &GraphView::updateDenseNote);
    updateDenseNote();
    // Edits (added edges, deleted nodes, Directed, undo) never re-fit the view: the nodes stay
    // where they were on screen. Fitting is on request (Fit Graph), on opening a file and after
    // generate, import and layouts, which call fitGraph().
}

void GraphView::updateDenseNote()
{
    if (!mScene->isDense()) {
        mDenseNote->hide();
        return;
    }
    const QLocale locale;
    const int drawn = mScene->drawnEdgeCount();
    const int total = mScene->totalEdgeCount();
    mDenseNote->setText(drawn < total ? tr("%1 edges: %2 drawn, thinned, without arrows")
                                            .arg(locale.toString(total), locale.toString(drawn))
                                      : tr("%1 edges drawn as one layer, without arrows").arg(locale.toString(total)));
    mDenseNote->adjustSize();
    mDenseNote->move(viewport()->geometry().topLeft() + QPoint(6, 6));
    mDenseNote->show();
    mDenseNote->raise();
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
    mFitRect = bounds;
    fitRect(bounds);
}

void GraphView::fitRect(const QRectF &bounds)
{
    resetTransform();
    fitInView(bounds, Qt::KeepAspectRatio);
    // Enlarge a small drawing until it fills the view, but never beyond nodes a fifth of the
    // view wide (a two-node graph), nor shrink below the minimum.
    const qreal z = zoom();
    const qreal side = std::min(viewport()->width(), viewport()->height());
    const qreal largest = std::clamp(side / (5 * 2 * NodeItem::Radius), 1.0, kMaxZoom);
    if (z > largest)
        scale(largest / z, largest / z);
    else if (z < kMinZoom)
        scale(kMinZoom / z, kMinZoom / z);
    centerOn(bounds.center());
    mAutoFit = true;
    updateNodeScale();
}

void GraphView::updateNodeScale()
{
    // Zoomed out (a 16-node ring fitted into a small view), the node labels shrank to ~6 px:
    // nodes are drawn larger in the scene instead, up to 3×, and with the presentation size.
    const qreal f = PresentationScale::factor();
    const qreal wanted = f * std::max<qreal>(1.0, 0.9 / std::max<qreal>(zoom(), 1e-3));
    mScene->setNodeScale(std::clamp<qreal>(wanted, 1.0, 3.0 * f));
}

void GraphView::scaleBy(qreal factor)
{
    const qreal z = zoom() * factor;
    if (z < kMinZoom || z > kMaxZoom)
        return;
    scale(factor, factor);
    mAutoFit = false;
    updateNodeScale();
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

bool GraphView::isExperimentDrop(const QMimeData *mime)
{
    return mime && mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile()
           && mime->urls().first().toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

// The scene has no drop targets: an experiment file dropped anywhere on the canvas opens, like
// on the rest of the window.
void GraphView::dragEnterEvent(QDragEnterEvent *event)
{
    if (isExperimentDrop(event->mimeData()))
        event->acceptProposedAction();
    else
        QGraphicsView::dragEnterEvent(event);
}

void GraphView::dragMoveEvent(QDragMoveEvent *event)
{
    if (isExperimentDrop(event->mimeData()))
        event->acceptProposedAction();
    else
        QGraphicsView::dragMoveEvent(event);
}

void GraphView::dropEvent(QDropEvent *event)
{
    if (!isExperimentDrop(event->mimeData())) {
        QGraphicsView::dropEvent(event);
        return;
    }
    event->acceptProposedAction();
    emit experimentDropped(event->mimeData()->urls().first().toLocalFile());
}

void GraphView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    // Keep what was fitted framed (not the graph as edited since: the inspector re-wrapping
    // after an edit resizes the view, and that must not move the nodes).
    if (mAutoFit) {
        if (mFitRect.isNull())
            fitGraph();
        else
            fitRect(mFitRect);
    }
}

} // namespace dplab
