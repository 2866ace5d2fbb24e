//! [`Classic`]: a [`ClassicState`] with its handle on the parameters, and the
//! accessors and settings calls that reach through it.

use super::*;

impl<W: WindowAdjustment> Classic<W, RfcParams> {
    /// A new flow at `now` with its own copy of the parameters `config` gives, in slow
    /// start with the configured initial window ([`RfcParams::new`] says what is
    /// refused).
    pub fn new(config: CubicConfig, now: Instant) -> Result<Self, ConfigError> {
        let params = RfcParams::new(&config)?;
        Ok(Classic::with_params(params, now))
    }
}

impl<W: WindowAdjustment, P: Borrow<RfcParams>> Classic<W, P> {
    /// A new flow at `now` that runs with the parameters behind `params` (validated
    /// already, so nothing can be refused), as [`ClassicState::new`].
    pub fn with_params(params: P, now: Instant) -> Self {
        let state = ClassicState::new(params.borrow(), now);
        Classic { state, params }
    }

    /// A flow from its state and the parameters it ran with (see [`into_parts`](Self::into_parts)).
    pub const fn from_parts(state: ClassicState<W>, params: P) -> Self {
        Classic { state, params }
    }

    /// The state and the parameter handle, apart.
    pub fn into_parts(self) -> (ClassicState<W>, P) {
        (self.state, self.params)
    }

    /// The flow's state, without its parameters.
    pub const fn state(&self) -> &ClassicState<W> {
        &self.state
    }

    /// The handle on the parameters (`P` itself).
    pub const fn params_handle(&self) -> &P {
        &self.params
    }

    /// The parameters the flow runs with, shared with whoever else uses them.
    #[inline]
    pub fn rfc_params(&self) -> &RfcParams {
        self.params.borrow()
    }

    /// The CUBIC parameters as this flow applies them: the shared settings at the
    /// flow's own MSS (NewReno reads only the MSS).
    pub fn params(&self) -> RfcCubicParams {
        self.state.params(self.params.borrow())
    }

    /// As [`ClassicState::growth`].
    pub const fn growth(&self) -> &W {
        self.state.growth()
    }

    /// The validated pacing-rate settings.
    pub fn pacing_params(&self) -> &PacingRateParams {
        self.params.borrow().pacing()
    }

    /// As [`ClassicState::hystart_pp`].
    pub const fn hystart_pp(&self) -> &HystartPlusPlus {
        self.state.hystart_pp()
    }

    /// As [`ClassicState::srtt_us`].
    pub const fn srtt_us(&self) -> u64 {
        self.state.srtt_us()
    }

    /// As [`ClassicState::min_rtt_us`].
    pub const fn min_rtt_us(&self) -> u64 {
        self.state.min_rtt_us()
    }

    /// As [`ClassicState::recovery_end`].
    pub const fn recovery_end(&self) -> Option<u64> {
        self.state.recovery_end()
    }

    /// As [`ClassicState::largest_acked`].
    pub const fn largest_acked(&self) -> Option<u64> {
        self.state.largest_acked()
    }

    /// As [`ClassicState::last_ack_cwnd_limited`].
    pub const fn last_ack_cwnd_limited(&self) -> bool {
        self.state.last_ack_cwnd_limited()
    }

    /// The MSS changed (QUIC: a new max datagram size) for this flow alone: see
    /// [`ClassicState::set_mss`]. Works whatever `P` is: the MSS is the flow's own.
    pub fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        self.state.set_mss(mss_bytes)
    }
}

impl<W: WindowAdjustment, P: BorrowMut<RfcParams>> Classic<W, P> {
    /// Replaces the pacing-rate settings, from the next read; needs a handle that can
    /// write the parameters (shared ones change where they are kept).
    pub fn set_pacing_params(&mut self, pacing: PacingRateParams) {
        self.params.borrow_mut().set_pacing(pacing);
    }

    /// New CUBIC settings for a running flow: see [`ClassicState::set_cubic_config`].
    /// Needs a handle that can change the parameters, as
    /// [`set_pacing_params`](Self::set_pacing_params).
    pub fn set_cubic_config(&mut self, cubic: RfcCubicConfig) -> Result<(), ConfigError> {
        self.state.set_cubic_config(self.params.borrow_mut(), cubic)
    }
}

impl<P> Classic<RfcCubic, P> {
    /// The CUBIC state (`W_max`, `K`, epoch, `W_est`, ...).
    pub const fn cubic(&self) -> &RfcCubic {
        &self.state.growth
    }
}
