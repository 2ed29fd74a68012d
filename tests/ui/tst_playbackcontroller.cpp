// SPDX-License-Identifier: GPL-3.0-or-later
//
// PlaybackController: iterations advanced per timer tick at each speed, stepping, scrubbing
// bounds and the stop at the end.
#include "playbackcontroller.h"

#include <QSignalSpy>
#include <QTest>

using namespace dplab;

class TestPlaybackController : public QObject
{
    Q_OBJECT

private slots:
    void iterationsPerTick_data();
    void iterationsPerTick();
    void ticksAdvanceAndStopAtTheEnd();
    void stepAndScrubStayInRange();
    void timerPlaysInRealTime();
};

void TestPlaybackController::iterationsPerTick_data()
{
    QTest::addColumn<double>("speed");
    QTest::addColumn<int>("interval");
    QTest::addColumn<int>("perTick");
    QTest::newRow("1 it/s") << 1.0 << 1000 << 1;
    QTest::newRow("5 it/s") << 5.0 << 200 << 1;
    QTest::newRow("25 it/s") << 25.0 << 40 << 1;
    QTest::newRow("100 it/s") << 100.0 << 40 << 4;
    QTest::newRow("1000 it/s") << 1000.0 << 40 << 40;
    QTest::newRow("full speed, 1001 points") << 0.0 << 40 << 41;
}

void TestPlaybackController::iterationsPerTick()
{
    QFETCH(double, speed);
    QFETCH(int, interval);
    QFETCH(int, perTick);
    PlaybackController c;
    c.setCount(1001);
    c.setSpeed(speed);
    QCOMPARE(c.tickInterval(), interval);
    QCOMPARE(c.iterationsPerTick(), perTick);
    c.play();
    const int before = c.index();
    c.tick();
    QCOMPARE(c.index() - before, perTick);
    c.pause();
}

void TestPlaybackController::ticksAdvanceAndStopAtTheEnd()
{
    PlaybackController c;
    c.setCount(10);
    c.setSpeed(100); // 4 per tick
    QSignalSpy playing(&c, &PlaybackController::playingChanged);
    c.play();
    QVERIFY(c.isPlaying());
    c.tick();
    c.tick();
    QCOMPARE(c.index(), 8);
    c.tick();
    QCOMPARE(c.index(), 9);
    QVERIFY(!c.isPlaying());
    QCOMPARE(playing.count(), 2);
    // Play again from the end restarts at 0.
    c.play();
    QCOMPARE(c.index(), 0);
    c.pause();
}

void TestPlaybackController::stepAndScrubStayInRange()
{
    PlaybackController c;
    c.setCount(5);
    QSignalSpy moved(&c, &PlaybackController::indexChanged);
    c.stepBack();
    QCOMPARE(c.index(), 0);
    QCOMPARE(moved.count(), 0);
    c.stepForward();
    c.stepForward();
    QCOMPARE(c.index(), 2);
    c.setIndex(100);
    QCOMPARE(c.index(), 4);
    c.setIndex(-3);
    QCOMPARE(c.index(), 0);
    QCOMPARE(moved.count(), 4);
    c.setCount(3);
    c.setIndex(2);
    c.setCount(2);
    QCOMPARE(c.index(), 1);
}

void TestPlaybackController::timerPlaysInRealTime()
{
    PlaybackController c;
    c.setCount(6);
    c.setSpeed(0); // full speed: ⌈6/25⌉ = 1 per 40 ms tick
    c.play();
    QTRY_COMPARE_WITH_TIMEOUT(c.index(), 5, 5000);
    QVERIFY(!c.isPlaying());
}

QTEST_MAIN(TestPlaybackController)
#include "tst_playbackcontroller.moc"
