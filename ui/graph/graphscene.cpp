// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphscene.h"

#include "edgeitem.h"
#include "graphdocument.h"
#include "nodeitem.h"
#include "textconvert.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QTimer>
#include <QGraphicsLineItem>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dplab {

namespace {

quint64 edgeKey(const Edge &e)
{
    return (static_cast<quint64>(static_cast<quint32>(e.from)) << 32) | static_cast<quint32>(e.to);
}

} // namespace

/** The edges of a dense graph as one item: a density picture rasterised here, not by
 *  QPainter. Drawing 40 000 lines through QPainter took seconds (Qt's raster engine hands
 *  every line's spans to its thread pool); here each line is stepped once (Bresenham) into a
 *  counter per device pixel, clipped to the view, and the counts become one translucent image:
 *  a pixel crossed by more edges is darker, and the per-edge opacity adapts so the picture is
 *  grey where the graph is dense instead of a black disk. The image is cached for one view
 *  transform, size and graph state; zooming or panning re-rasterises, repaints reuse it. */
class EdgeLayerItem : public QGraphicsItem
{
public:
    EdgeLayerItem(const GraphScene *scene, const Graph &graph)
        : mScene(scene)
    {
        setZValue(1);
        setAcceptedMouseButtons(Qt::NoButton);
        setAcceptHoverEvents(false);
        setEdges(graph);
    }

    void setEdges(const Graph &graph)
    {
        // A deterministic, evenly spread subset: edge ⌊k·E/M⌋ for k < M.
        const auto &all = graph.edges();
        const std::size_t total = all.size();
        mTotal = static_cast<int>(total);
        const std::size_t drawn = std::min<std::size_t>(total, GraphScene::kMaxDrawnEdges);
        mEdges.clear();
        mEdges.reserve(drawn);
        for (std::size_t k = 0; k < drawn; ++k)
            mEdges.push_back(all[k * total / drawn]);
        nodesMoved();
    }

    int drawnCount() const { return static_cast<int>(mEdges.size()); }
    int totalCount() const { return mTotal; }

    void nodesMoved()
    {
        prepareGeometryChange();
        QRectF bounds;
        for (int i = 0;; ++i) {
            const NodeItem *node = mScene->nodeItem(i);
            if (!node)
                break;
            bounds = bounds.isNull() ? QRectF(node->pos(), QSizeF(1, 1)) : bounds.united(QRectF(node->pos(), QSizeF(1, 1)));
        }
        mBounds = bounds.adjusted(-2, -2, 2, 2);
        ++mVersion;
        update();
    }

    QRectF boundingRect() const override { return mBounds; }
    QPainterPath shape() const override { return QPainterPath(); } // never hit by the mouse

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        const QPaintDevice *device = painter->device();
        if (!device)
            return;
        const QSize size(device->width(), device->height());
        const QTransform toDevice = painter->worldTransform();
        if (mImage.size() != size || mImageTransform != toDevice || mImageVersion != mVersion) {
            rasterise(toDevice, size);
            mImageTransform = toDevice;
            mImageVersion = mVersion;
        }
        painter->save();
        painter->resetTransform();
        painter->drawImage(QPoint(0, 0), mImage);
        painter->restore();
    }

private:
    /** Clips the segment to [0, w) × [0, h) (Liang–Barsky); false when nothing is left. */
    static bool clip(QPointF &a, QPointF &b, double w, double h)
    {
        double t0 = 0, t1 = 1;
        const double dx = b.x() - a.x(), dy = b.y() - a.y();
        const double p[4] = {-dx, dx, -dy, dy};
        const double q[4] = {a.x(), w - 1 - a.x(), a.y(), h - 1 - a.y()};
        for (int k = 0; k < 4; ++k) {
            if (p[k] == 0) {
                if (q[k] < 0)
                    return false;
                continue;
            }
            const double t = q[k] / p[k];
            if (p[k] < 0)
                t0 = std::max(t0, t);
            else
                t1 = std::min(t1, t);
            if (t0 > t1)
                return false;
        }
        const QPointF start = a;
        a = start + QPointF(dx, dy) * t0;
        b = start + QPointF(dx, dy) * t1;
        return true;
    }

    void rasterise(const QTransform &toDevice, const QSize &size)
    {
        const int w = size.width(), h = size.height();
        mImage = QImage(size, QImage::Format_ARGB32_Premultiplied);
        mImage.fill(Qt::transparent);
        if (w <= 0 || h <= 0)
            return;
        std::vector<quint8> counts(static_cast<std::size_t>(w) * h, 0);
        std::uint64_t crossings = 0;
        for (const Edge &e : mEdges) {
            const NodeItem *from = mScene->nodeItem(e.from);
            const NodeItem *to = mScene->nodeItem(e.to);
            if (!from || !to)
                continue;
            QPointF a = toDevice.map(from->pos()), b = toDevice.map(to->pos());
            if (!clip(a, b, w, h))
                continue;
            // Clipped to [0, w − 1] × [0, h − 1] (the clamp only absorbs round-off), and
            // Bresenham never leaves the box of its endpoints: no bounds check per pixel.
            int x0 = std::clamp(int(std::lround(a.x())), 0, w - 1), y0 = std::clamp(int(std::lround(a.y())), 0, h - 1);
            const int x1 = std::clamp(int(std::lround(b.x())), 0, w - 1), y1 = std::clamp(int(std::lround(b.y())), 0, h - 1);
            const int dx = std::abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
            const int dy = -std::abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
            int err = dx + dy;
            crossings += static_cast<std::uint64_t>(std::max(dx, -dy)) + 1;
            quint8 *const base = counts.data();
            for (;;) {
                quint8 &c = base[static_cast<std::size_t>(y0) * w + x0];
                c += c < 255;
                if (x0 == x1 && y0 == y1)
                    break;
                const int e2 = 2 * err;
                if (e2 >= dy) {
                    err += dy;
                    x0 += sx;
                }
                if (e2 <= dx) {
                    err += dx;
                    y0 += sy;
                }
            }
        }
        std::size_t covered = 0;
        for (quint8 c : counts)
            covered += c > 0;
        if (covered == 0)
            return;
        // Opacity per edge such that a pixel with the mean number of crossings is half covered
        // (at most 0.8 for a single line, so a sparse region still shows its lines).
        const double mean = double(crossings) / double(covered);
        const double perEdge = std::min(0.8, 1.0 - std::pow(0.5, 1.0 / std::max(mean, 1.0)));
        const int r = 0x4a, g = 0x55, b = 0x68;
        QRgb lut[256];
        lut[0] = 0;
        for (int c = 1; c < 256; ++c) {
            const double alpha = std::min(0.92, 1.0 - std::pow(1.0 - perEdge, c));
            lut[c] = qRgba(int(r * alpha + 0.5), int(g * alpha + 0.5), int(b * alpha + 0.5), int(255 * alpha + 0.5));
        }
        for (int y = 0; y < h; ++y) {
            auto *line = reinterpret_cast<QRgb *>(mImage.scanLine(y));
            const quint8 *row = counts.data() + static_cast<std::size_t>(y) * w;
            for (int x = 0; x < w; ++x)
                line[x] = lut[row[x]];
        }
    }

    const GraphScene *mScene;
    std::vector<Edge> mEdges;
    int mTotal = 0;
    QRectF mBounds;
    quint64 mVersion = 0;
    QImage mImage;
    QTransform mImageTransform;
    quint64 mImageVersion = ~quint64(0);
};

GraphScene::GraphScene(GraphDocument *document, QObject *parent)
    : QGraphicsScene(parent)
    , mDocument(document)
{
    setItemIndexMethod(QGraphicsScene::NoIndex);
    connect(document, &GraphDocument::graphReset, this, &GraphScene::rebuild);
    connect(document, &GraphDocument::nodeAdded, this, &GraphScene::onNodeAdded);
    connect(document, &GraphDocument::nodeRemoved, this, &GraphScene::onNodeRemoved);
    connect(document, &GraphDocument::edgeAdded, this, &GraphScene::onEdgeAdded);
    connect(document, &GraphDocument::edgeRemoved, this, &GraphScene::onEdgeRemoved);
    connect(document, &GraphDocument::nodesMoved, this, &GraphScene::onNodesMoved);
    // Queued: items being deleted change the selection, and the labels are placed once they are gone.
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::placeLabels, Qt::QueuedConnection);
    rebuild();
}

GraphScene::~GraphScene()
{
    deleteItems(); // edges before nodes: an edge unregisters itself from its nodes
}

void GraphScene::deleteItems()
{
    if (mRubberLine) {
        removeItem(mRubberLine);
        delete mRubberLine;
        mRubberLine = nullptr;
    }
    mEdgeStart = nullptr;
    mDragNodes.clear();
    delete mLayer;
    mLayer = nullptr;
    qDeleteAll(mEdges);
    mEdges.clear();
    qDeleteAll(mNodes);
    mNodes.clear();
}

void GraphScene::setMode(Mode mode)
{
    if (mMode == mode)
        return;
    mMode = mode;
    const bool movable = mode == Mode::Select;
    for (NodeItem *node : mNodes)
        node->setFlag(QGraphicsItem::ItemIsMovable, movable);
    for (QGraphicsView *view : views())
        view->setDragMode(movable ? QGraphicsView::RubberBandDrag : QGraphicsView::NoDrag);
    emit modeChanged(mode);
}

NodeItem *GraphScene::nodeItem(int index) const
{
    return index >= 0 && index < static_cast<int>(mNodes.size()) ? mNodes[index] : nullptr;
}

EdgeItem *GraphScene::edgeItem(const Edge &edge) const
{
    return mEdges.value(edgeKey(edge), nullptr);
}

QVector<int> GraphScene::selectedNodes() const
{
    QVector<int> nodes;
    for (QGraphicsItem *item : selectedItems())
        if (item->type() == NodeItem::Type)
            nodes.push_back(static_cast<NodeItem *>(item)->index());
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

QVector<Edge> GraphScene::selectedEdges() const
{
    QVector<Edge> edges;
    for (QGraphicsItem *item : selectedItems())
        if (item->type() == EdgeItem::Type)
            edges.push_back(static_cast<EdgeItem *>(item)->edge());
    return edges;
}

void GraphScene::deleteSelection()
{
    mDocument->deleteElements(selectedNodes(), selectedEdges());
}

void GraphScene::setHighlightedNodes(const std::vector<int> &nodes)
{
    mHighlighted = nodes;
    std::vector<bool> on(mNodes.size(), false);
    for (int i : nodes)
        if (i >= 0 && i < static_cast<int>(on.size()))
            on[i] = true;
    for (std::size_t i = 0; i < mNodes.size(); ++i)
        mNodes[i]->setHighlighted(on[i]);
}

void GraphScene::setWeightMatrices(const Eigen::MatrixXd &primary, const Eigen::MatrixXd &secondary)
{
    mPrimary = primary;
    mSecondary = secondary;
    updateLabels();
}

void GraphScene::setShowWeights(bool show)
{
    mShowWeights = show;
    updateLabels();
}

void GraphScene::setNodeCaptions(const QStringList &captions)
{
    mCaptions = captions;
    for (std::size_t i = 0; i < mNodes.size(); ++i)
        mNodes[i]->setCaption(static_cast<int>(i) < mCaptions.size() ? mCaptions[int(i)] : QString());
}

QPointF GraphScene::toScene(const NodePosition &p) const
{
    // Layout y grows upwards (math convention); scene y grows downwards.
    return QPointF(p.x * mScale, -p.y * mScale);
}

NodePosition GraphScene::fromScene(const QPointF &p) const
{
    return NodePosition{p.x() / mScale, -p.y() / mScale};
}

void GraphScene::chooseScale()
{
    const Graph &g = mDocument->graph();
    if (!g.hasPositions() || g.nodeCount() < 2)
        return;
    const auto &pos = g.positions();
    double nearest = std::numeric_limits<double>::infinity();
    const int n = g.nodeCount();
    const int limit = std::min(n, 400); // O(n²); a sample is enough for big graphs
    for (int i = 0; i < limit; ++i)
        for (int j = i + 1; j < n; ++j) {
            const double d = std::hypot(pos[i].x - pos[j].x, pos[i].y - pos[j].y);
            if (d > 1e-9)
                nearest = std::min(nearest, d);
        }
    if (!std::isfinite(nearest))
        return;
    const double wanted = std::clamp(90.0 / nearest, 10.0, 5000.0);
    // Keep the scale when it is close, so undo/redo does not make the picture jump.
    if (wanted > 2 * mScale || wanted < 0.5 * mScale)
        mScale = wanted;
}

int GraphScene::drawnEdgeCount() const
{
    return mLayer ? mLayer->drawnCount() : 0;
}

int GraphScene::totalEdgeCount() const
{
    return mLayer ? mLayer->totalCount() : 0;
}

void GraphScene::nodeItemMoved(NodeItem *)
{
    if (mLayer)
        mLayer->nodesMoved();
}

void GraphScene::rebuild()
{
    const Graph &g = mDocument->graph();
    const bool dense = static_cast<int>(g.edgeCount()) > mDenseThreshold;
    if (dense)
        QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    deleteItems();
    clear();
    chooseScale();
    for (int i = 0; i < g.nodeCount(); ++i)
        onNodeAdded(i);
    if (dense) {
        mLayer = new EdgeLayerItem(this, g);
        addItem(mLayer);
    } else {
        for (const Edge &e : g.edges())
            createEdgeItem(e);
        for (const Edge &e : g.edges())
            updateParallel(e);
    }
    setHighlightedNodes(mHighlighted);
    setNodeCaptions(mCaptions);
    updateLabels();
    const QRectF bounds = itemsBoundingRect();
    setSceneRect(bounds.adjusted(-2000, -2000, 2000, 2000));
    if (dense)
        QGuiApplication::restoreOverrideCursor();
    emit rebuilt();
}

void GraphScene::onNodeAdded(int node)
{
    auto *item = new NodeItem(node);
    item->setFlag(QGraphicsItem::ItemIsMovable, mMode == Mode::Select);
    const Graph &g = mDocument->graph();
    if (g.hasPositions() && node < static_cast<int>(g.positions().size()))
        item->setPos(toScene(g.positions()[node]));
    item->setScale(mNodeScale);
    addItem(item);
    if (node >= static_cast<int>(mNodes.size()))
        mNodes.resize(node + 1, nullptr);
    mNodes[node] = item;
}

void GraphScene::onNodeRemoved(int node)
{
    if (node < 0 || node >= static_cast<int>(mNodes.size()))
        return;
    NodeItem *item = mNodes[node];
    const auto edges = item->edges();
    for (EdgeItem *edge : edges) {
        mEdges.remove(edgeKey(edge->edge()));
        delete edge;
    }
    mNodes.erase(mNodes.begin() + node);
    if (mEdgeStart == item)
        mEdgeStart = nullptr;
    delete item;
    for (std::size_t i = node; i < mNodes.size(); ++i)
        mNodes[i]->setIndex(static_cast<int>(i));
    if (mLayer) {
        mLayer->setEdges(mDocument->graph());
        emit denseEdgesChanged();
    }
}

void GraphScene::onEdgeAdded(const Edge &edge)
{
    // Undirected graphs store {min, max}: find the stored form.
    if (mLayer) {
        mLayer->setEdges(mDocument->graph());
        emit denseEdgesChanged();
        return;
    }
    Edge stored = edge;
    if (!mDocument->graph().isDirected() && stored.from > stored.to)
        std::swap(stored.from, stored.to);
    createEdgeItem(stored);
    updateParallel(stored);
    updateLabels();
}

void GraphScene::onEdgeRemoved(const Edge &edge)
{
    if (mLayer) {
        mLayer->setEdges(mDocument->graph());
        emit denseEdgesChanged();
        return;
    }
    Edge stored = edge;
    if (!mDocument->graph().isDirected() && stored.from > stored.to)
        std::swap(stored.from, stored.to);
    if (EdgeItem *item = mEdges.take(edgeKey(stored)))
        delete item;
    updateParallel(Edge{stored.to, stored.from});
}

void GraphScene::onNodesMoved(const QVector<int> &nodes)
{
    QTimer::singleShot(0, this, &GraphScene::placeLabels); // after the items moved
    const Graph &g = mDocument->graph();
    if (!g.hasPositions())
        return;
    for (int i : nodes)
        if (NodeItem *item = nodeItem(i))
            item->setPos(toScene(g.positions()[i]));
}

void GraphScene::createEdgeItem(const Edge &edge)
{
    NodeItem *a = nodeItem(edge.from);
    NodeItem *b = nodeItem(edge.to);
    if (!a || !b || mEdges.contains(edgeKey(edge)))
        return;
    auto *item = new EdgeItem(a, b, edge, mDocument->graph().isDirected());
    addItem(item);
    mEdges.insert(edgeKey(edge), item);
}

void GraphScene::updateParallel(const Edge &edge)
{
    if (!mDocument->graph().isDirected())
        return;
    EdgeItem *forward = edgeItem(edge);
    EdgeItem *backward = edgeItem(Edge{edge.to, edge.from});
    const bool both = forward && backward;
    if (forward)
        forward->setParallelOffset(both);
    if (backward)
        backward->setParallelOffset(both);
}

void GraphScene::updateLabels()
{
    const int n = mDocument->graph().nodeCount();
    const bool have = mShowWeights && mPrimary.rows() == n && mPrimary.cols() == n;
    const bool pair = have && mSecondary.rows() == n && mSecondary.cols() == n;
    for (EdgeItem *item : std::as_const(mEdges)) {
        if (!have) {
            item->setLabel(QString());
            continue;
        }
        const Edge &e = item->edge(); // e.from sends to e.to: entry (to, from)
        QString label = numberText(mPrimary(e.to, e.from), 3);
        if (pair)
            label += QStringLiteral(" | ") + numberText(mSecondary(e.to, e.from), 3);
        item->setLabel(label);
    }
    placeLabels();
}

void GraphScene::setNodeScale(qreal scale)
{
    // Never so large that neighbouring nodes overlap.
    double nearest = std::numeric_limits<double>::infinity();
    const int count = std::min<int>(static_cast<int>(mNodes.size()), 300);
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j)
            if (mNodes[i] && mNodes[j])
                nearest = std::min(nearest, double(QLineF(mNodes[i]->pos(), mNodes[j]->pos()).length()));
    if (std::isfinite(nearest) && nearest > 0)
        scale = std::max<qreal>(1.0, std::min<qreal>(scale, 0.42 * nearest / NodeItem::Radius));
    if (std::abs(scale - mNodeScale) < 1e-3)
        return;
    mNodeScale = scale;
    for (NodeItem *node : mNodes)
        if (node)
            node->setScale(scale);
    for (EdgeItem *edge : std::as_const(mEdges))
        edge->adjust();
    placeLabels();
    update();
}

void GraphScene::placeLabels()
{
    // On a dense graph every label at its edge's midpoint piles up: place them one by one and
    // hide any that would cover a placed label or a node. The selection's labels go first, so
    // selecting a node or an edge always shows its weights.
    QVector<EdgeItem *> order;
    QVector<EdgeItem *> rest;
    for (EdgeItem *item : std::as_const(mEdges)) {
        if (item->label().isEmpty())
            continue;
        const bool chosen = item->isSelected() || (nodeItem(item->edge().from) && nodeItem(item->edge().from)->isSelected())
                            || (nodeItem(item->edge().to) && nodeItem(item->edge().to)->isSelected());
        (chosen ? order : rest).push_back(item);
    }
    auto byEdge = [](const EdgeItem *a, const EdgeItem *b) {
        return std::pair(a->edge().from, a->edge().to) < std::pair(b->edge().from, b->edge().to);
    };
    std::sort(order.begin(), order.end(), byEdge);
    std::sort(rest.begin(), rest.end(), byEdge);
    const int chosenCount = order.size();
    order += rest;
    QVector<QRectF> placed;
    QVector<QRectF> nodes;
    for (const NodeItem *node : mNodes)
        if (node)
            nodes.push_back(node->sceneBoundingRect().adjusted(4, 4, -4, -4));
    for (int k = 0; k < order.size(); ++k) {
        EdgeItem *item = order[k];
        const QRectF r = item->labelSceneRect();
        bool free = true;
        for (const QRectF &p : std::as_const(placed))
            free = free && !p.intersects(r);
        if (k >= chosenCount)
            for (const QRectF &n : std::as_const(nodes))
                free = free && !n.intersects(r);
        item->setLabelVisible(free);
        if (free)
            placed.push_back(r);
    }
}

NodeItem *GraphScene::nodeAt(const QPointF &scenePos) const
{
    for (QGraphicsItem *item : items(scenePos))
        if (item->type() == NodeItem::Type)
            return static_cast<NodeItem *>(item);
    return nullptr;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QGraphicsScene::mousePressEvent(event);
        return;
    }
    switch (mMode) {
    case Mode::AddNode:
        if (!nodeAt(event->scenePos()))
            mDocument->addNode(fromScene(event->scenePos()));
        event->accept();
        return;
    case Mode::AddEdge:
        mEdgeStart = nodeAt(event->scenePos());
        if (mEdgeStart) {
            mRubberLine = new QGraphicsLineItem(QLineF(mEdgeStart->pos(), event->scenePos()));
            mRubberLine->setPen(QPen(QColor(0x1c, 0x71, 0xd8), 2, Qt::DashLine));
            mRubberLine->setZValue(3);
            addItem(mRubberLine);
        }
        event->accept();
        return;
    case Mode::Select:
        QGraphicsScene::mousePressEvent(event);
        // Remember where the nodes that may be dragged were.
        mDragNodes.clear();
        mDragFrom.clear();
        const Graph &g = mDocument->graph();
        for (int i : selectedNodes()) {
            mDragNodes.push_back(i);
            // The document's exact position, so undo restores it bit for bit.
            mDragFrom.push_back(g.hasPositions() ? g.positions()[i] : fromScene(mNodes[i]->pos()));
        }
        return;
    }
}

void GraphScene::contextMenuEvent(QGraphicsSceneContextMenuEvent *event)
{
    QGraphicsItem *hit = nullptr;
    for (QGraphicsItem *item : items(event->scenePos()))
        if (item->type() == NodeItem::Type || item->type() == EdgeItem::Type) {
            hit = item;
            break;
        }
    // Acting on what is under the cursor, as file managers do: it becomes the selection unless
    // it is already part of it.
    if (hit && !hit->isSelected()) {
        clearSelection();
        hit->setSelected(true);
    }
    const int node = hit && hit->type() == NodeItem::Type ? static_cast<NodeItem *>(hit)->index() : -1;
    const Edge edge = hit && hit->type() == EdgeItem::Type ? static_cast<EdgeItem *>(hit)->edge() : Edge{-1, -1};
    event->accept();
    emit contextMenuRequested(node, edge, event->screenPos(), event->scenePos());
}

void GraphScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (mMode == Mode::AddEdge && mRubberLine) {
        mRubberLine->setLine(QLineF(mRubberLine->line().p1(), event->scenePos()));
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void GraphScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    if (mMode == Mode::AddEdge) {
        if (mRubberLine) {
            removeItem(mRubberLine);
            delete mRubberLine;
            mRubberLine = nullptr;
        }
        NodeItem *end = nodeAt(event->scenePos());
        if (mEdgeStart && end && end != mEdgeStart)
            mDocument->addEdge(mEdgeStart->index(), end->index());
        mEdgeStart = nullptr;
        event->accept();
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    if (mMode == Mode::Select && !mDragNodes.isEmpty()) {
        QVector<NodePosition> to;
        bool moved = false;
        for (int k = 0; k < mDragNodes.size(); ++k) {
            const NodePosition p = fromScene(mNodes[mDragNodes[k]]->pos());
            to.push_back(p);
            moved = moved || std::abs(p.x - mDragFrom[k].x) > 1e-9 || std::abs(p.y - mDragFrom[k].y) > 1e-9;
        }
        if (moved)
            mDocument->moveNodes(mDragNodes, mDragFrom, to);
        mDragNodes.clear();
        mDragFrom.clear();
    }
}

} // namespace dplab
