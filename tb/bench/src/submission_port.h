// submission_port.h - how a channel's transfers reach the engine and
// their completions come back: START, one transfer at a time through its
// own descriptor chunks, or a descriptor ring worked through TAIL
// (dma.submission). The testbench submits, reaps and waits through a
// channel's port without asking which it is.
#pragma once

#include "testbench.h"

namespace dmasim::tb {

class Testbench::Port {
public:
    Port(Testbench& bench, unsigned channel, bool for_ring)
        : bench_(bench), channel_(channel), for_ring_(for_ring) {}
    virtual ~Port() = default;

    /// Its transfers are prepared for a ring: no descriptor chunks of their own.
    bool for_ring() const { return for_ring_; }
    /// Hands prepared `t` to the driver: 0, -ENOSPC if the port has no room
    /// now (nothing done), or another driver error.
    virtual int submit(Transfer& t) = 0;
    /// What the driver's error `err` submitting `t` means, for the scenario's stop.
    virtual std::string submit_error(const Transfer& t, int err) const = 0;
    /// The driver's side of ScenarioBench::wait() before the scenario sees `t`
    /// complete (START: it sleeps until the handler completes the channel,
    /// then reads its status; a ring's reap has done so).
    virtual void await(Transfer&) {}
    /// ... and once it has: `t` leaves the port.
    virtual void take(Transfer& t) = 0;
    /// The oldest transfer submitted and not yet waited, or null.
    virtual Transfer* oldest() const = 0;
    /// The oldest transfer submitted (its START or TAIL write done) whose
    /// completion the driver has not reaped, or null.
    const Transfer* pending() const {
        const Transfer* t = unreaped();
        return t && t->started_ ? t : nullptr;
    }
    /// After the interrupt handler ran: it `acknowledged` the channel and
    /// found its work `completed`. Adds what completed to `done` and its
    /// descriptors to `reaped`.
    virtual void interrupt(bool acknowledged, bool completed, Reaped& reaped,
                           std::vector<Transfer*>& done) = 0;
    /// A poll of the channel (workload.completion polling): what it finds
    /// counts as an interrupt that acknowledged the channel and completed it.
    void poll(Reaped& reaped, std::vector<Transfer*>& done) {
        if (pending() && poll_found()) interrupt(true, true, reaped, done);
    }
    /// Adds waited `t`'s descriptors (and, START, its fetches) to the measured counts.
    virtual void count(const Transfer& t, Window& counts) const = 0;

protected:
    /// The oldest transfer handed to the driver whose completion it has not
    /// reaped, submitted or still being submitted.
    virtual const Transfer* unreaped() const = 0;
    /// The driver's reads of a poll found work done: START reads STATUS;
    /// a ring is reaped whatever it holds.
    virtual bool poll_found() { return true; }
    /// Counts `done` more descriptors of `t` as reaped.
    static void add(Reaped& reaped, const Transfer& t, uint64_t done);

    Testbench& bench_;
    unsigned channel_;

private:
    bool for_ring_;
};

/// START: the channel runs one transfer, from its own descriptor chunks.
class Testbench::StartPort : public Testbench::Port {
public:
    StartPort(Testbench& bench, unsigned channel) : Port(bench, channel, false) {}
    int submit(Transfer& t) override;
    std::string submit_error(const Transfer& t, int err) const override;
    void await(Transfer& t) override;
    void take(Transfer& t) override;
    Transfer* oldest() const override;
    void interrupt(bool acknowledged, bool completed, Reaped& reaped,
                   std::vector<Transfer*>& done) override;
    void count(const Transfer& t, Window& counts) const override;

private:
    const Transfer* unreaped() const override;
    bool poll_found() override;

    Transfer* active_ = nullptr;  ///< started and not yet waited
};

/// A descriptor ring (dma.submission tail_pointer): the driver's ring holds
/// the requests in order until they are waited; the port keeps only how
/// many of them it has handed over as complete.
class Testbench::RingPort : public Testbench::Port {
public:
    RingPort(Testbench& bench, unsigned channel, dmasim_ring* ring);
    ~RingPort() override;
    int submit(Transfer& t) override;
    std::string submit_error(const Transfer& t, int err) const override;
    void take(Transfer& t) override;
    Transfer* oldest() const override;
    void interrupt(bool acknowledged, bool completed, Reaped& reaped,
                   std::vector<Transfer*>& done) override;
    void count(const Transfer& t, Window& counts) const override;

    /// Stops the ring once every request was waited; adds its fetches to
    /// `counts` and checks a mem_to_dev ring's whole stream.
    void close(Window& counts);

private:
    const Transfer* unreaped() const override;

    dmasim_ring* ring_;
    unsigned handed_ = 0;  ///< oldest requests reaped and handed over, not yet waited
    model::ChannelStats at_open_;
    /// mem_to_dev: the digest the device's sink must reach once every
    /// request submitted so far has been consumed
    uint64_t device_digest_ = 0;
    uint64_t device_pos_ = 0;  ///< dev_to_mem: stream bytes submitted so far
};

}  // namespace dmasim::tb
