//! Measurements to try the fits on, from the seeds: `[1]`'s power
//! readings (real), and timings generated from `[3]`'s reference
//! instance and the mixed cluster of the heterogeneous tab with 3 %
//! measurement noise (synthetic, and labelled so); and two real
//! experiments of this project (`docs/real-run.md`): SQLite and GNU sort
//! timed on the development machine, each with the runs of M3's split it
//! predicted. The synthetic files are
//! made by `tests/fit_data.rs` from a fixed seed, which also checks that
//! the committed files are what it makes.

use super::table::{Table, TableError};

/// A built-in table of measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataSet {
    /// Its name (a preset's, starting with the model's id).
    pub name: &'static str,
    /// One line: where it comes from, and whether it is synthetic.
    pub label: &'static str,
    /// Whether the numbers were generated rather than measured.
    pub synthetic: bool,
    /// The table, as CSV (comment lines say how it was made).
    pub csv: &'static str,
}

impl DataSet {
    /// The table, read as a user's would be.
    ///
    /// # Errors
    ///
    /// None for the built-in files (a test reads each); the reader's error
    /// otherwise.
    pub fn table(&self) -> Result<Table, TableError> {
        Table::from_text(self.csv)
    }
}

/// `[1]`'s power table: computing, idle and hibernated power of one machine.
pub const POWER_004: DataSet = DataSet {
    name: "fit-power-004",
    label: "[1] power table, measured: AMD Phenom II, FreeBSD (2012), P_C of five \
            applications at 50/200/800 MB, idle 73.0 W, hibernation 6.3 W",
    synthetic: false,
    csv: include_str!("power_004.csv"),
};

/// Two-level computing times of `[3]`'s reference machine.
pub const TWO_LEVEL_000: DataSet = DataSet {
    name: "fit-two-level-000",
    label: "synthetic: [3]'s reference machine, max(0.109 α, 4.132 α − 27109) s \
            (RAM ≈ 6739 MB), 40 loads of 500–20000 MB, 3 % noise",
    synthetic: true,
    csv: include_str!("two_level_000.csv"),
};

/// Transfer times of a link with `[3]`'s rate and per-message cost.
pub const NETWORK_000: DataSet = DataSet {
    name: "fit-network-000",
    label: "synthetic: a link with [3]'s C = 0.005 s/MB and O = 0.075 s, messages of \
            1–1000 MB three times each, 3 % noise",
    synthetic: true,
    csv: include_str!("network_000.csv"),
};

/// Two-level computing times of three different machines.
pub const CLUSTER: DataSet = DataSet {
    name: "fit-cluster",
    label: "synthetic: the heterogeneous tab's three machine kinds (RAM 6739, 4000 and \
            8000 MB), 25 loads of 800–20000 MB each, 3 % noise",
    synthetic: true,
    csv: include_str!("cluster.csv"),
};

/// What the measured sort tables were measured on, for their labels.
macro_rules! sort_machine {
    () => {
        "GNU sort 9.1 (-S 16M, spilled runs gzip-compressed) on a 2-core Intel Xeon virtual \
         machine, Linux 6.18, 2026-11-28"
    };
}

/// GNU sort's computing times, measured: one worker alone, 17 chunk sizes
/// of 1–64 MB, 4 times each.
pub const SORT_COMPUTE: DataSet = DataSet {
    name: "fit-sort-compute",
    label: concat!(
        "measured: ",
        sort_machine!(),
        ": computing times of 1–64 MB chunks, 4 each"
    ),
    synthetic: false,
    csv: include_str!("sort_compute.csv"),
};

/// The link of the same experiment: real transfers over loopback, paced by
/// the sender at an emulated 100 MB/s.
pub const SORT_LINK: DataSet = DataSet {
    name: "fit-sort-link",
    label: concat!(
        "measured: ",
        sort_machine!(),
        ": transfers of 0.1–64 MB, the link emulated at 100 MB/s"
    ),
    synthetic: false,
    csv: include_str!("sort_link.csv"),
};

/// The makespans of M3's split of five loads, run twice each.
pub const SORT_RUNS: DataSet = DataSet {
    name: "fit-sort-runs",
    label: concat!(
        "measured: ",
        sort_machine!(),
        ": makespans of M3's split of 6.8–67.5 MB on two workers"
    ),
    synthetic: false,
    csv: include_str!("sort_runs.csv"),
};

/// What the measured SQLite tables were measured on, for their labels.
macro_rules! sqlite_machine {
    () => {
        "SQLite 3.40.1 (lines loaded into an indexed table, page cache 8 MiB) on a 2-core \
         Intel Xeon virtual machine, Linux 6.18, 2026-11-28"
    };
}

/// SQLite's computing times, measured: one worker alone, 17 chunk sizes
/// of 1–64 MB, 4 times each.
pub const SQLITE_COMPUTE: DataSet = DataSet {
    name: "fit-sqlite-compute",
    label: concat!(
        "measured: ",
        sqlite_machine!(),
        ": computing times of 1–64 MB chunks, 4 each"
    ),
    synthetic: false,
    csv: include_str!("sqlite_compute.csv"),
};

/// The link of the SQLite experiment, paced at an emulated 100 MB/s.
pub const SQLITE_LINK: DataSet = DataSet {
    name: "fit-sqlite-link",
    label: concat!(
        "measured: ",
        sqlite_machine!(),
        ": transfers of 0.1–64 MB, the link emulated at 100 MB/s"
    ),
    synthetic: false,
    csv: include_str!("sqlite_link.csv"),
};

/// The makespans of M3's split of five loads, run twice each.
pub const SQLITE_RUNS: DataSet = DataSet {
    name: "fit-sqlite-runs",
    label: concat!(
        "measured: ",
        sqlite_machine!(),
        ": makespans of M3's split of 6.1–61.3 MB on two workers"
    ),
    synthetic: false,
    csv: include_str!("sqlite_runs.csv"),
};

/// Every built-in table.
pub const ALL: [DataSet; 10] = [
    POWER_004,
    TWO_LEVEL_000,
    NETWORK_000,
    CLUSTER,
    SQLITE_COMPUTE,
    SQLITE_LINK,
    SQLITE_RUNS,
    SORT_COMPUTE,
    SORT_LINK,
    SORT_RUNS,
];

/// The built-in table of this name.
pub fn find(name: &str) -> Option<DataSet> {
    ALL.into_iter().find(|d| d.name == name)
}
