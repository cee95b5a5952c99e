//! Independent pieces of one computation (a map's columns, Table 1's rows,
//! [`each`]) or the children of a search's node ([`map`]) on every core of
//! a native machine.
//!
//! Natively the pieces run on a work-stealing pool (`rayon`), one per core,
//! while the calling thread relays progress: it reports the share of pieces
//! done, hands each finished piece to the caller (for partial results),
//! and, when its progress asks to stop, tells the running pieces to stop at
//! their next report. Each piece runs under the caller's deadline. In
//! WebAssembly (one thread; the page has its own pool of workers) the
//! pieces run one after the other with their own progress, as before.
//! Either way a piece is computed by the same code from the same inputs, so
//! the results are those of one thread, in the items' order.

use crate::core::domain::error::Error;
use crate::core::solving::progress::Progress;

/// Computes `work(item, progress)` for every item and returns the results
/// in the items' order; `finished(index, result, progress)` sees each
/// result as soon as it is ready (in order of completion natively).
///
/// # Errors
///
/// The error of the first piece (in the items' order) that failed;
/// [`Error::Cancelled`] when `progress` asks to stop.
pub fn each<I, T>(
    items: &[I],
    work: impl Fn(&I, &mut dyn Progress) -> Result<T, Error> + Sync,
    progress: &mut dyn Progress,
    mut finished: impl FnMut(usize, &T, &mut dyn Progress),
) -> Result<Vec<T>, Error>
where
    I: Sync,
    T: Send,
{
    // Inside a piece (a rayon worker) the pieces run one after the other:
    // a worker blocked relaying nested pieces could leave none to run them.
    #[cfg(not(target_arch = "wasm32"))]
    if on_the_pool(items.len()) {
        return native::each(items, &work, progress, &mut finished);
    }
    let share = 1.0 / items.len().max(1) as f64;
    let mut results = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let mut part = Part {
            whole: &mut *progress,
            from: i as f64 * share,
            share,
        };
        let result = work(item, &mut part)?;
        finished(i, &result, progress);
        results.push(result);
    }
    Ok(results)
}

/// `f` of every item, in the items' order: a few LPs of one search (a
/// node's children) on every core of a native machine, under the caller's
/// deadline. One after the other in WebAssembly, and inside a piece that
/// [`each`] runs on the pool, whose pieces already keep every core busy.
pub fn map<I, T>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T>
where
    I: Sync,
    T: Send,
{
    #[cfg(not(target_arch = "wasm32"))]
    if on_the_pool(items.len()) {
        use rayon::prelude::*;
        let end = crate::core::solving::deadline::current();
        return items
            .par_iter()
            .map(|item| crate::core::solving::deadline::within(end, || f(item)))
            .collect();
    }
    items.iter().map(f).collect()
}

/// Whether `items` pieces go to the pool: more than one, a pool of more
/// than one thread, and a caller outside it.
#[cfg(not(target_arch = "wasm32"))]
fn on_the_pool(items: usize) -> bool {
    items > 1 && rayon::current_num_threads() > 1 && rayon::current_thread_index().is_none()
}

/// One piece's share of the whole's progress; partial results passed on.
struct Part<'a> {
    whole: &'a mut dyn Progress,
    from: f64,
    share: f64,
}

impl Progress for Part<'_> {
    fn report(&mut self, done: f64, what: &str) -> bool {
        self.whole.report(self.from + done * self.share, what)
    }

    fn partial(&mut self, response: &crate::core::presentation::response::Response) {
        self.whole.partial(response);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::{self, RecvTimeoutError};
    use std::time::Duration;

    use crate::core::domain::error::Error;
    use crate::core::presentation::response::Response;
    use crate::core::solving::deadline;
    use crate::core::solving::progress::Progress;

    /// The work and the hand-over, as [`super::each`] gets them.
    type Work<'a, I, T> = &'a (dyn Fn(&I, &mut dyn Progress) -> Result<T, Error> + Sync);
    type Finished<'a, T> = &'a mut dyn FnMut(usize, &T, &mut dyn Progress);

    /// What a piece tells the calling thread.
    enum Message<T> {
        /// A provisional answer (a map with a column's first lines), handed
        /// on as a one-thread computation would hand it out.
        Partial(Box<Response>),
        /// The piece's result.
        Done(usize, Result<T, Error>),
    }

    /// A piece's progress: its reports only ask whether to go on; its
    /// partial answers go to the calling thread.
    struct Piece<'a, T> {
        stop: &'a AtomicBool,
        sender: mpsc::Sender<Message<T>>,
    }

    impl<T> Progress for Piece<'_, T> {
        fn report(&mut self, _: f64, _: &str) -> bool {
            !self.stop.load(Ordering::Relaxed)
        }

        fn partial(&mut self, response: &Response) {
            let _ = self
                .sender
                .send(Message::Partial(Box::new(response.clone())));
        }
    }

    /// [`super::each`] on rayon's pool, the calling thread relaying.
    pub(super) fn each<I: Sync, T: Send>(
        items: &[I],
        work: Work<'_, I, T>,
        progress: &mut dyn Progress,
        finished: Finished<'_, T>,
    ) -> Result<Vec<T>, Error> {
        let stop = AtomicBool::new(false);
        let end = deadline::current();
        let (sender, receiver) = mpsc::channel();
        let mut results: Vec<Option<Result<T, Error>>> = items.iter().map(|_| None).collect();
        rayon::in_place_scope(|scope| {
            for (i, item) in items.iter().enumerate() {
                let sender = sender.clone();
                let stop = &stop;
                scope.spawn(move |_| {
                    let mut piece = Piece {
                        stop,
                        sender: sender.clone(),
                    };
                    let result = deadline::within(end, || work(item, &mut piece));
                    // The receiver outlives the scope; a send cannot fail.
                    let _ = sender.send(Message::Done(i, result));
                });
            }
            drop(sender);
            relay(&receiver, &stop, progress, finished, &mut results);
        });
        gathered(results)
    }

    /// On the calling thread until every piece has ended: hands on the
    /// pieces' partial answers and results as they come, reports progress,
    /// and stops the pieces when one fails or the caller asks.
    fn relay<T>(
        receiver: &mpsc::Receiver<Message<T>>,
        stop: &AtomicBool,
        progress: &mut dyn Progress,
        finished: Finished<'_, T>,
        results: &mut [Option<Result<T, Error>>],
    ) {
        let mut done = 0;
        loop {
            // Reports now and then even while no piece ends, so that a
            // time limit or a cancel reaches the pieces soon.
            match receiver.recv_timeout(Duration::from_millis(50)) {
                Ok(Message::Partial(response)) => progress.partial(&response),
                Ok(Message::Done(i, result)) => {
                    done += 1;
                    if let Ok(value) = &result {
                        finished(i, value, progress);
                    } else {
                        stop.store(true, Ordering::Relaxed);
                    }
                    results[i] = Some(result);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            let what = format!("{done} of {} done", results.len());
            if !progress.report(done as f64 / results.len() as f64, &what) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The pieces' values in order, or the failure to report: a piece
    /// stopped because another failed reports `Cancelled`, so the failure
    /// that caused it is the one to report.
    fn gathered<T>(results: Vec<Option<Result<T, Error>>>) -> Result<Vec<T>, Error> {
        let mut values = Vec::with_capacity(results.len());
        let mut failure = None;
        for result in results {
            match result.unwrap_or(Err(Error::Cancelled)) {
                Ok(value) => values.push(value),
                Err(Error::Cancelled) => failure = failure.or(Some(Error::Cancelled)),
                Err(e) => {
                    if failure.as_ref().is_none_or(|f| *f == Error::Cancelled) {
                        failure = Some(e);
                    }
                }
            }
        }
        match failure {
            None => Ok(values),
            Some(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::solving::progress::Silent;

    /// Pieces that run pieces of their own finish (no worker waits on work
    /// only it could run), with the results in order.
    #[test]
    fn nested_pieces_finish_in_order() {
        let items: Vec<u64> = (0..6).collect();
        let inner = |&i: &u64, progress: &mut dyn Progress| {
            let parts: Vec<u64> = (0..5).map(|j| 10 * i + j).collect();
            let squares = each(&parts, |&x, _| Ok(x * x), progress, |_, _, _| {})?;
            Ok(squares.iter().sum::<u64>())
        };
        let sums = each(&items, inner, &mut Silent, |_, _, _| {}).unwrap();
        let want: Vec<u64> = items
            .iter()
            .map(|i| (0..5).map(|j| (10 * i + j) * (10 * i + j)).sum())
            .collect();
        assert_eq!(sums, want);
    }

    /// The first real error wins over the cancels it caused, and a stop
    /// asked by the caller is a cancel.
    #[test]
    fn errors_and_stops() {
        let items: Vec<usize> = (0..8).collect();
        let failing = |&i: &usize, _: &mut dyn Progress| match i {
            5 => Err(Error::Malformed("piece 5".into())),
            _ => Ok(i),
        };
        let got = each(&items, failing, &mut Silent, |_, _, _| {});
        assert_eq!(got, Err(Error::Malformed("piece 5".into())));
        let slow = |&i: &usize, progress: &mut dyn Progress| {
            for _ in 0..200 {
                if !progress.report(0.0, "") {
                    return Err(Error::Cancelled);
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            Ok(i)
        };
        let got = each(&items, slow, &mut |_: f64, _: &str| false, |_, _, _| {});
        assert_eq!(got, Err(Error::Cancelled));
    }

    /// A search's children come back in order, each computed under the
    /// caller's deadline whichever thread computed it.
    #[test]
    fn map_keeps_the_order_and_the_deadline() {
        let items: Vec<u64> = (0..64).collect();
        let end = web_time::Instant::now() + std::time::Duration::from_secs(60);
        let got = crate::core::solving::deadline::with_deadline(end, || {
            map(&items, |&i| {
                (i * i, crate::core::solving::deadline::current())
            })
        });
        let want: Vec<_> = items.iter().map(|&i| (i * i, Some(end))).collect();
        assert_eq!(got, want);
        assert_eq!(map(&items[..1], |&i| i + 1), vec![1]);
    }
}
