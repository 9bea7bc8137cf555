//! [`select!`](crate::select) and [`select_biased!`](crate::select_biased):
//! `crossbeam_channel`'s syntax, over [`Select`](crate::Select).
//!
//! The macros read the arms one at a time (`@parse` the operation,
//! `@body` the arm's body) into a list, each arm with two names of its own
//! from a pool the entry macro writes (a macro cannot make up names, and
//! names written inside one of its own expansions are not visible in
//! another); then `@gen` adds each operation to a `Select` (`@reg`), runs
//! the call the `default` arm asks for, and runs the chosen arm's body
//! (`@dispatch`). A send arm's value is evaluated only when its arm is
//! chosen, as in `crossbeam_channel`.

/// Waits on several channel operations and runs the arm of the one that
/// goes ahead; among several ready at once, one chosen at random. The
/// syntax is `crossbeam_channel::select!`'s:
///
/// - `recv(r) -> msg => body`: receive from `r` (a [`Receiver`](crate::Receiver)
///   or a reference to one); `msg` is a `Result<T, RecvError>` (`Err` when
///   the channel is empty and disconnected);
/// - `send(s, value) -> res => body`: send `value` on `s`; `res` is a
///   `Result<(), SendError<T>>` (`Err` when every receiver is gone);
///   `value` is evaluated only if this arm is chosen;
/// - `default => body`: run when no operation can go ahead at once
///   (without it the macro blocks);
/// - `default(timeout) => body`: run when none could go ahead within
///   `timeout` (a `Duration`).
///
/// Arms are separated by commas (optional after a block). An operation on
/// a disconnected channel is ready (its arm runs with the error).
///
/// ```
/// use std::time::Duration;
/// use hotq_mpmc::{bounded, select};
///
/// let (data_tx, data_rx) = bounded::<u64>(8);
/// let (ctl_tx, ctl_rx) = bounded::<&str>(1);
/// std::thread::spawn(move || {
///     for i in 0..3 {
///         data_tx.send(i).unwrap();
///     }
///     ctl_tx.send("stop").unwrap();
/// });
/// let mut sum = 0;
/// loop {
///     select! {
///         recv(data_rx) -> item => sum += item.unwrap_or(0),
///         recv(ctl_rx) -> cmd => {
///             assert_eq!(cmd, Ok("stop"));
///             break;
///         }
///         default(Duration::from_secs(10)) => panic!("no message within 10 s"),
///     }
/// }
/// // The data before "stop" may still be queued when "stop" wins a round.
/// sum += data_rx.try_iter().sum::<u64>();
/// assert_eq!(sum, 3);
/// ```
///
/// A send arm, and `default` when nothing is ready:
///
/// ```
/// use hotq_mpmc::{bounded, select};
///
/// let (tx, rx) = bounded(1);
/// tx.send(0).unwrap(); // full
/// let sent = select! {
///     send(tx, 1) -> res => res.is_ok(),
///     default => false,
/// };
/// assert!(!sent);
/// drop(rx);
/// select! {
///     send(tx, 2) -> res => assert_eq!(res, Err(hotq_mpmc::SendError(2))), // disconnected
/// }
/// ```
#[macro_export]
macro_rules! select {
    ($($arms:tt)*) => {
        $crate::__hotq_select!(@parse (new) [
            (__hotq_h0 __hotq_i0) (__hotq_h1 __hotq_i1) (__hotq_h2 __hotq_i2)
            (__hotq_h3 __hotq_i3) (__hotq_h4 __hotq_i4) (__hotq_h5 __hotq_i5)
            (__hotq_h6 __hotq_i6) (__hotq_h7 __hotq_i7) (__hotq_h8 __hotq_i8)
            (__hotq_h9 __hotq_i9) (__hotq_h10 __hotq_i10) (__hotq_h11 __hotq_i11)
            (__hotq_h12 __hotq_i12) (__hotq_h13 __hotq_i13) (__hotq_h14 __hotq_i14)
            (__hotq_h15 __hotq_i15) (__hotq_h16 __hotq_i16) (__hotq_h17 __hotq_i17)
            (__hotq_h18 __hotq_i18) (__hotq_h19 __hotq_i19) (__hotq_h20 __hotq_i20)
            (__hotq_h21 __hotq_i21) (__hotq_h22 __hotq_i22) (__hotq_h23 __hotq_i23)
            (__hotq_h24 __hotq_i24) (__hotq_h25 __hotq_i25) (__hotq_h26 __hotq_i26)
            (__hotq_h27 __hotq_i27) (__hotq_h28 __hotq_i28) (__hotq_h29 __hotq_i29)
            (__hotq_h30 __hotq_i30) (__hotq_h31 __hotq_i31)
        ] [] [] $($arms)*)
    };
}

/// [`select!`](crate::select) that picks the first-listed arm among those
/// ready at once, instead of one at random. Same syntax.
///
/// ```
/// use hotq_mpmc::{bounded, select_biased};
///
/// let (tx1, rx1) = bounded(1);
/// let (tx2, rx2) = bounded(1);
/// tx1.send(1).unwrap();
/// tx2.send(2).unwrap();
/// for _ in 0..10 {
///     // Both ready: always the first. (`rx1` refilled each round.)
///     let got = select_biased! {
///         recv(rx1) -> v => v.unwrap(),
///         recv(rx2) -> v => v.unwrap(),
///     };
///     assert_eq!(got, 1);
///     tx1.send(1).unwrap();
/// }
/// // Nothing ready: `default`.
/// let (_tx3, rx3) = bounded::<i32>(1);
/// assert_eq!(select_biased! { recv(rx3) -> _v => 0, default => -1 }, -1);
/// ```
#[macro_export]
macro_rules! select_biased {
    ($($arms:tt)*) => {
        $crate::__hotq_select!(@parse (new_biased) [
            (__hotq_h0 __hotq_i0) (__hotq_h1 __hotq_i1) (__hotq_h2 __hotq_i2)
            (__hotq_h3 __hotq_i3) (__hotq_h4 __hotq_i4) (__hotq_h5 __hotq_i5)
            (__hotq_h6 __hotq_i6) (__hotq_h7 __hotq_i7) (__hotq_h8 __hotq_i8)
            (__hotq_h9 __hotq_i9) (__hotq_h10 __hotq_i10) (__hotq_h11 __hotq_i11)
            (__hotq_h12 __hotq_i12) (__hotq_h13 __hotq_i13) (__hotq_h14 __hotq_i14)
            (__hotq_h15 __hotq_i15) (__hotq_h16 __hotq_i16) (__hotq_h17 __hotq_i17)
            (__hotq_h18 __hotq_i18) (__hotq_h19 __hotq_i19) (__hotq_h20 __hotq_i20)
            (__hotq_h21 __hotq_i21) (__hotq_h22 __hotq_i22) (__hotq_h23 __hotq_i23)
            (__hotq_h24 __hotq_i24) (__hotq_h25 __hotq_i25) (__hotq_h26 __hotq_i26)
            (__hotq_h27 __hotq_i27) (__hotq_h28 __hotq_i28) (__hotq_h29 __hotq_i29)
            (__hotq_h30 __hotq_i30) (__hotq_h31 __hotq_i31)
        ] [] [] $($arms)*)
    };
}

/// The macros' engine (see `select_macro.rs`); not part of the API.
#[doc(hidden)]
#[macro_export]
macro_rules! __hotq_select {
    // ---- @parse: (ctor) [names] [arms] [default] tokens ----
    (@parse $ctor:tt $names:tt $arms:tt $default:tt) => {
        $crate::__hotq_select!(@gen $ctor $arms $default)
    };
    (@parse $ctor:tt $names:tt $arms:tt $default:tt
        recv($r:expr $(,)?) -> $res:pat => $($rest:tt)*) => {
        $crate::__hotq_select!(@body $ctor $names $arms $default (recv ($r) $res) $($rest)*)
    };
    (@parse $ctor:tt $names:tt $arms:tt $default:tt
        send($s:expr, $v:expr $(,)?) -> $res:pat => $($rest:tt)*) => {
        $crate::__hotq_select!(@body $ctor $names $arms $default (send ($s) ($v) $res) $($rest)*)
    };
    (@parse $ctor:tt $names:tt $arms:tt [] default => $($rest:tt)*) => {
        $crate::__hotq_select!(@body $ctor $names $arms [] (default ()) $($rest)*)
    };
    (@parse $ctor:tt $names:tt $arms:tt [] default($t:expr $(,)?) => $($rest:tt)*) => {
        $crate::__hotq_select!(@body $ctor $names $arms [] (default ($t)) $($rest)*)
    };
    (@parse $ctor:tt $names:tt $arms:tt [$($default:tt)+] default $($rest:tt)*) => {
        ::core::compile_error!("a `select!` has at most one `default` arm")
    };
    (@parse $ctor:tt [] $arms:tt $default:tt $($rest:tt)+) => {
        ::core::compile_error!("a `select!` has at most 32 arms")
    };
    (@parse $ctor:tt $names:tt $arms:tt $default:tt $($rest:tt)+) => {
        ::core::compile_error!(
            "expected an arm: `recv(r) -> msg => ...`, `send(s, value) -> res => ...`, \
             `default => ...` or `default(timeout) => ...`"
        )
    };

    // ---- @body: the arm's body, then the comma (optional after a block) ----
    (@body $ctor:tt $names:tt $arms:tt $default:tt $head:tt $body:block, $($rest:tt)*) => {
        $crate::__hotq_select!(@arm $ctor $names $arms $default $head ($body) $($rest)*)
    };
    (@body $ctor:tt $names:tt $arms:tt $default:tt $head:tt $body:block $($rest:tt)*) => {
        $crate::__hotq_select!(@arm $ctor $names $arms $default $head ($body) $($rest)*)
    };
    (@body $ctor:tt $names:tt $arms:tt $default:tt $head:tt $body:expr, $($rest:tt)*) => {
        $crate::__hotq_select!(@arm $ctor $names $arms $default $head ($body) $($rest)*)
    };
    (@body $ctor:tt $names:tt $arms:tt $default:tt $head:tt $body:expr) => {
        $crate::__hotq_select!(@arm $ctor $names $arms $default $head ($body))
    };

    // ---- @arm: files the arm (a `default` apart) and goes on ----
    (@arm $ctor:tt $names:tt $arms:tt [] (default $t:tt) $body:tt $($rest:tt)*) => {
        $crate::__hotq_select!(@parse $ctor $names $arms [$t $body] $($rest)*)
    };
    (@arm $ctor:tt [$name:tt $($names:tt)*] [$($arms:tt)*] $default:tt $head:tt $body:tt
        $($rest:tt)*) => {
        $crate::__hotq_select!(@parse $ctor [$($names)*] [$($arms)* ($name $head $body)]
            $default $($rest)*)
    };

    // ---- @gen: the select and the dispatch ----
    (@gen ($ctor:ident) [$($arm:tt)*] []) => {{
        let mut __hotq_sel = $crate::Select::$ctor();
        $($crate::__hotq_select!(@reg __hotq_sel $arm);)*
        let __hotq_oper = __hotq_sel.select();
        let __hotq_index = __hotq_oper.index();
        $crate::__hotq_select!(@dispatch __hotq_oper __hotq_index $($arm)*)
    }};
    (@gen ($ctor:ident) [$($arm:tt)*] [() $body:tt]) => {{
        let mut __hotq_sel = $crate::Select::$ctor();
        $($crate::__hotq_select!(@reg __hotq_sel $arm);)*
        match __hotq_sel.try_select() {
            ::core::result::Result::Ok(__hotq_oper) => {
                let __hotq_index = __hotq_oper.index();
                $crate::__hotq_select!(@dispatch __hotq_oper __hotq_index $($arm)*)
            }
            ::core::result::Result::Err(_) => $body,
        }
    }};
    (@gen ($ctor:ident) [$($arm:tt)*] [($t:expr) $body:tt]) => {{
        let mut __hotq_sel = $crate::Select::$ctor();
        $($crate::__hotq_select!(@reg __hotq_sel $arm);)*
        match __hotq_sel.select_timeout($t) {
            ::core::result::Result::Ok(__hotq_oper) => {
                let __hotq_index = __hotq_oper.index();
                $crate::__hotq_select!(@dispatch __hotq_oper __hotq_index $($arm)*)
            }
            ::core::result::Result::Err(_) => $body,
        }
    }};

    // ---- @reg: one operation added to the select ----
    (@reg $sel:ident (($h:ident $i:ident) (recv ($r:expr) $res:pat) $body:tt)) => {
        let $h: &$crate::Receiver<_> = &$r;
        let $i = $sel.recv($h);
    };
    (@reg $sel:ident (($h:ident $i:ident) (send ($s:expr) ($v:expr) $res:pat) $body:tt)) => {
        let $h: &$crate::Sender<_> = &$s;
        let $i = $sel.send($h);
    };

    // ---- @dispatch: the chosen arm ----
    (@dispatch $oper:ident $index:ident) => {{
        let _ = $index;
        ::core::unreachable!("a select returned an operation it was not given")
    }};
    (@dispatch $oper:ident $index:ident
        (($h:ident $i:ident) (recv ($r:expr) $res:pat) $body:tt) $($rest:tt)*) => {
        if $index == $i {
            let $res = $oper.recv($h);
            $body
        } else {
            $crate::__hotq_select!(@dispatch $oper $index $($rest)*)
        }
    };
    (@dispatch $oper:ident $index:ident
        (($h:ident $i:ident) (send ($s:expr) ($v:expr) $res:pat) $body:tt) $($rest:tt)*) => {
        if $index == $i {
            let $res = $oper.send($h, $v);
            $body
        } else {
            $crate::__hotq_select!(@dispatch $oper $index $($rest)*)
        }
    };
}
