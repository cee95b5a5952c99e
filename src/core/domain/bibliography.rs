//! The works the models come from, cited by key from each tab (its form's
//! `sources`) and listed once at the foot of the page.

use serde::Serialize;

/// A published work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Work {
    /// How forms cite it (`drozdowski-basics`); the page's anchor is
    /// `bib-` and the key.
    pub key: &'static str,
    /// The authors, as printed.
    pub authors: &'static str,
    /// The title.
    pub title: &'static str,
    /// Where and when it appeared.
    pub venue: &'static str,
}

/// Every work a tab cites, in the order of the list on the page.
pub const WORKS: &[Work] = &[
    Work {
        key: "drozdowski-basics",
        authors: "M. Drozdowski",
        title: "Divisible load theory: from basics to applications",
        venue: "lecture notes, Institute of Computing Science, Poznań University of Technology",
    },
    Work {
        key: "drozdowski-wolniewicz-2003",
        authors: "M. Drozdowski, P. Wolniewicz",
        title: "Out-of-core divisible load processing",
        venue: "IEEE Transactions on Parallel and Distributed Systems 14(10), 1048–1056, 2003",
    },
    Work {
        key: "drozdowski-singh-marszalkowski",
        authors: "M. Drozdowski, G. Singh, J. M. Marszałkowski",
        title: "Isoefficiency maps for divisible computations in hierarchical memory systems",
        venue:
            "Parallel Processing and Applied Mathematics (PPAM 2019), LNCS 12043, Springer, 2020",
    },
    Work {
        key: "marszalkowski-energy",
        authors: "J. M. Marszałkowski, M. Drozdowski, G. Singh",
        title: "Time-energy trade-offs in processing divisible loads on heterogeneous hierarchical memory systems",
        venue: "Journal of Parallel and Distributed Computing, 2020",
    },
    Work {
        key: "grama-2003",
        authors: "A. Grama, A. Gupta, G. Karypis, V. Kumar",
        title: "Introduction to Parallel Computing (2nd ed.), chapter 5: analytical modeling",
        venue: "Addison-Wesley, 2003",
    },
    Work {
        key: "karp-flatt-1990",
        authors: "A. H. Karp, H. P. Flatt",
        title: "Measuring parallel processor performance",
        venue: "Communications of the ACM 33(5), 539–543, 1990",
    },
    Work {
        key: "sun-rover-1994",
        authors: "X.-H. Sun, D. T. Rover",
        title: "Scalability of parallel algorithm-machine combinations",
        venue: "IEEE Transactions on Parallel and Distributed Systems 5(6), 599–613, 1994",
    },
    Work {
        key: "sun-chen-wu-2005",
        authors: "X.-H. Sun, Y. Chen, M. Wu",
        title: "Scalability of heterogeneous computing",
        venue: "International Conference on Parallel Processing (ICPP), 2005",
    },
    Work {
        key: "gunther-2007",
        authors: "N. J. Gunther",
        title: "Guerrilla Capacity Planning (the universal scalability law)",
        venue: "Springer, 2007",
    },
];

/// The work cited as `key`.
pub fn work(key: &str) -> Option<&'static Work> {
    WORKS.iter().find(|w| w.key == key)
}
