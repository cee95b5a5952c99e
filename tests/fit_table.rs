//! Tables of measurements as users paste them: CSV and TSV edge cases,
//! every unit, JSON rows and columns, and every refusal with the column
//! and the row (as an editor numbers lines: the header is row 1) in its
//! message.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::models::fit::{Measurements, Place, Quantity, Table, TableError, Values, MAX_ROWS};
use dlt_calc::Error;

/// A table that must read.
fn read(text: &str) -> Table {
    Table::from_text(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// The values of a quantity, which the table must have.
fn numbers(table: &Table, quantity: Quantity) -> Vec<f64> {
    table.numbers(quantity).expect("the column").to_vec()
}

/// Equal to the last few bits (a unit's factor may round).
fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-12 * x.abs().max(y.abs()))
}

#[test]
fn csv_edge_cases_read_the_same_two_samples() {
    let cases = [
        ("plain", "size_MB,time_s\n100,10.9\n200,21.8\n"),
        ("no final newline", "size_MB,time_s\n100,10.9\n200,21.8"),
        (
            "quoted fields",
            "\"size_MB\",\"time_s\"\n\"100\",\"10.9\"\n200,\"21.8\"\n",
        ),
        ("CRLF", "size_MB,time_s\r\n100,10.9\r\n200,21.8\r\n"),
        (
            "byte-order mark",
            "\u{feff}size_MB,time_s\n100,10.9\n200,21.8\n",
        ),
        (
            "trailing empty lines",
            "size_MB,time_s\n100,10.9\n200,21.8\n\n\n",
        ),
        (
            "a trailing row of empty cells",
            "size_MB,time_s\n100,10.9\n200,21.8\n,\n",
        ),
        (
            "blank lines before and between",
            "\n\nsize_MB,time_s\n100,10.9\n\n200,21.8\n",
        ),
        (
            "spaces around values",
            " size_MB , time_s \n 100 ,10.9 \n\t200, 21.8\n",
        ),
        ("tabs", "size_MB\ttime_s\n100\t10.9\n200\t21.8\n"),
        ("semicolons", "size_MB;time_s\n100;10.9\n200;21.8\n"),
        (
            "columns in another order",
            "time_s,size_MB\n10.9,100\n21.8,200\n",
        ),
        (
            "a comment line",
            "# measured on node 3\nsize_MB,time_s\n100,10.9\n# again\n200,21.8\n",
        ),
        (
            "units in brackets",
            "size [MB],time (s)\n100,10.9\n200,21.8\n",
        ),
        (
            "units in another case",
            "SIZE_mb,Time_S\n100,10.9\n200,21.8\n",
        ),
        ("exponents", "size_MB,time_s\n1e2,1.09e1\n2E2,21.8\n"),
    ];
    for (what, text) in cases {
        let table = read(text);
        assert_eq!(table.rows(), 2, "{what}");
        assert_eq!(
            numbers(&table, Quantity::Size),
            vec![100.0, 200.0],
            "{what}"
        );
        assert_eq!(numbers(&table, Quantity::Time), vec![10.9, 21.8], "{what}");
    }
}

#[test]
fn delimiter_is_found_from_the_header() {
    // A comma inside a machine's name in a TSV, a decimal point everywhere.
    let tsv = read("machine\tsize_MB\ttime_s\nnode, rack 1\t100\t10.9\n");
    assert_eq!(
        tsv.texts("machine"),
        Some(&["node, rack 1".to_string()][..])
    );
    let semicolons = read("machine;size_MB;time_s\n\"a;b\";100;10.9\n");
    assert_eq!(semicolons.texts("machine"), Some(&["a;b".to_string()][..]));
    // A single column has no delimiter at all.
    let single = read("power_W\n126.8\n73.0\n");
    assert_eq!(numbers(&single, Quantity::Power), vec![126.8, 73.0]);
}

#[test]
fn every_unit_is_converted_to_the_calculators() {
    // (header, value written, value in MB, s, J or W)
    let cases = [
        ("size_MB", "250", 250.0, Quantity::Size),
        ("size_GB", "1.5", 1500.0, Quantity::Size),
        ("size_kB", "2500", 2.5, Quantity::Size),
        ("size_B", "3000000", 3.0, Quantity::Size),
        ("load_MB", "250", 250.0, Quantity::Size),
        ("alpha_MB", "250", 250.0, Quantity::Size),
        ("load_GB", "2", 2000.0, Quantity::Size),
        ("time_s", "12.5", 12.5, Quantity::Time),
        ("time_ms", "12.5", 0.0125, Quantity::Time),
        ("time_us", "12.5", 12.5e-6, Quantity::Time),
        ("time_µs", "12.5", 12.5e-6, Quantity::Time),
        ("time_ns", "12.5", 12.5e-9, Quantity::Time),
        ("time_min", "2", 120.0, Quantity::Time),
        ("time_h", "2", 7200.0, Quantity::Time),
        ("energy_J", "400", 400.0, Quantity::Energy),
        ("energy_kJ", "1.5", 1500.0, Quantity::Energy),
        ("energy_Wh", "2", 7200.0, Quantity::Energy),
        ("energy_kWh", "0.5", 1.8e6, Quantity::Energy),
        ("power_W", "126.8", 126.8, Quantity::Power),
        ("power_kW", "0.25", 250.0, Quantity::Power),
    ];
    for (header, written, expected, quantity) in cases {
        let table = read(&format!("{header}\n{written}\n"));
        let got = numbers(&table, quantity);
        assert!(
            close(&got, &[expected]),
            "{header}: {got:?}, not {expected}"
        );
        assert_eq!(table.columns[0].header, header);
    }
    assert_eq!(Quantity::Size.unit(), "MB");
    assert_eq!(Quantity::Time.unit(), "s");
    assert_eq!(Quantity::Energy.unit(), "J");
    assert_eq!(Quantity::Power.unit(), "W");
}

#[test]
fn unsorted_and_repeated_loads_are_kept_as_given() {
    let table = read("size_MB,time_s\n300,3\n100,1.1\n300,3.2\n100,0.9\n");
    assert_eq!(
        numbers(&table, Quantity::Size),
        vec![300.0, 100.0, 300.0, 100.0]
    );
    assert_eq!(numbers(&table, Quantity::Time), vec![3.0, 1.1, 3.2, 0.9]);
}

#[test]
fn samples_are_grouped_per_machine_in_order_of_appearance() {
    let table = read("machine,size_MB,time_s\nb,1,10\na,2,20\nb,3,30\nc,4,40\na,5,50\n");
    let groups = table.groups();
    let names: Vec<&str> = groups.iter().map(|g| g.machine.as_str()).collect();
    assert_eq!(names, ["b", "a", "c"]);
    let time = numbers(&table, Quantity::Time);
    assert_eq!(groups[0].pick(&time), vec![10.0, 30.0]);
    assert_eq!(groups[1].pick(&time), vec![20.0, 50.0]);
    assert_eq!(groups[2].pick(&time), vec![40.0]);
    // Without a machine column, one group of every row.
    let one = read("size_MB,time_s\n1,1\n2,2\n").groups();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].rows, vec![0, 1]);
}

#[test]
fn rows_know_their_lines() {
    let table = read("# a comment\nsize_MB,time_s\n1,1\n\n2,2\r\n3,3\n");
    let lines: Vec<Option<Place>> = (0..4).map(|i| table.place(i)).collect();
    let line = |n| Some(Place::Line(n));
    assert_eq!(lines, vec![line(3), line(5), line(6), None]);
}

/// The error of a table that must not read.
fn refused(text: &str) -> TableError {
    match Table::from_text(text) {
        Ok(table) => panic!("{text:?} was read: {table:?}"),
        Err(e) => e,
    }
}

#[test]
fn every_refusal_names_its_column_and_row() {
    // (what, text, words the message must contain)
    let h = "size_MB,time_s\n";
    let cases: Vec<(&str, String, &[&str])> = vec![
        ("empty", String::new(), &["empty"]),
        ("white space only", " \n\t\n\n".into(), &["empty"]),
        ("comments only", "# nothing\n".into(), &["empty"]),
        ("header only", h.into(), &["no measurements"]),
        (
            "unknown column",
            "size_MB,colour\n1,2\n".into(),
            &["`colour`", "time_s"],
        ),
        (
            "no unit",
            "size_MB,time\n1,2\n".into(),
            &["`time` has no unit", "time_s", "time_ms"],
        ),
        (
            "no unit on a size",
            "size,time_s\n1,2\n".into(),
            &["`size` has no unit", "size_MB"],
        ),
        (
            "unknown unit",
            "size_MB,time_fortnights\n1,2\n".into(),
            &["`fortnights`", "time_s"],
        ),
        (
            "duplicate column",
            "size_MB,time_s,time_ms\n1,2,3\n".into(),
            &["`time_ms`", "`time_s`"],
        ),
        (
            "two names of a size",
            "size_MB,load_MB,time_s\n1,2,3\n".into(),
            &["`load_MB`", "`size_MB`"],
        ),
        (
            "two machine columns",
            "machine,size_MB,machine\na,1,b\n".into(),
            &["`machine`"],
        ),
        (
            "a unit on a text column",
            "machine_MB\n1\n".into(),
            &["`machine_MB`"],
        ),
        (
            "text in a number column",
            format!("{h}1,2\n3,fast\n"),
            &["row 3", "`time_s`", "\"fast\""],
        ),
        (
            "decimal comma",
            format!("{h}1,2\n\"3,5\",4\n"),
            &["row 3", "`size_MB`", "\"3,5\""],
        ),
        ("empty number", format!("{h}1,\n"), &["row 2", "`time_s`"]),
        (
            "NaN",
            format!("{h}1,2\n2,NaN\n"),
            &["row 3", "`time_s`", "finite"],
        ),
        (
            "infinity",
            format!("{h}inf,2\n"),
            &["row 2", "`size_MB`", "finite"],
        ),
        (
            "overflow by the unit",
            "size_GB,time_s\n1e306,1\n".into(),
            &["row 2", "`size_GB`", "finite"],
        ),
        (
            "negative time",
            format!("{h}1,2\n2,3\n3,-4\n"),
            &["row 4", "`time_s`", "-4"],
        ),
        (
            "zero time",
            format!("{h}1,0\n"),
            &["row 2", "`time_s`", "greater than zero"],
        ),
        (
            "zero size",
            format!("{h}0,1\n"),
            &["row 2", "`size_MB`", "greater than zero"],
        ),
        (
            "negative power",
            "power_W\n-1\n".into(),
            &["row 2", "`power_W`", "negative"],
        ),
        (
            "negative energy",
            "size_MB,energy_kJ\n1,-2\n".into(),
            &["row 2", "`energy_kJ`", "-2"],
        ),
        (
            "empty machine",
            "machine,size_MB,time_s\na,1,1\n ,2,2\n".into(),
            &["row 3", "`machine`", "empty"],
        ),
        (
            "short row",
            format!("{h}1,2\n3\n"),
            &["row 3", "1 cells", "2 columns"],
        ),
        (
            "long row",
            format!("{h}1,2,3\n"),
            &["row 2", "3 cells", "2 columns"],
        ),
        (
            "row after blank lines",
            format!("{h}\n\n1,x\n"),
            &["row 4", "`time_s`"],
        ),
        (
            "row after a comment",
            format!("# note\n{h}1,x\n"),
            &["row 3", "`time_s`"],
        ),
        (
            "CRLF rows",
            "size_MB,time_s\r\n1,1\r\n1,x\r\n".into(),
            &["row 3", "`time_s`"],
        ),
        (
            "quoted line break",
            format!("{h}\"1\n\",2\n3,x\n"),
            &["row 4", "`time_s`"],
        ),
    ];
    for (what, text, words) in cases {
        let message = refused(&text).to_string();
        for word in words {
            assert!(message.contains(word), "{what}: {message:?} lacks {word:?}");
        }
        assert!(
            !message.starts_with(char::is_uppercase),
            "{what}: {message}"
        );
    }
}

#[test]
fn refusals_are_typed() {
    let h = "size_MB,time_s\n";
    assert_eq!(refused(""), TableError::Empty);
    assert_eq!(refused(h), TableError::HeaderOnly);
    assert!(matches!(
        refused(&format!("{h}1,2\n3,x\n")),
        TableError::NotNumber { column, row: Place::Line(3), text } if column == "time_s" && text == "x"
    ));
    assert!(matches!(
        refused(&format!("{h}1,2\n3,-1\n")),
        TableError::NotPositive { row: Place::Line(3), value, .. } if value == -1.0
    ));
    assert_eq!(
        refused(&format!("{h}1,2\n3\n")),
        TableError::Ragged {
            row: Place::Line(3),
            found: 1,
            expected: 2
        }
    );
    assert!(
        matches!(refused("size_MB,time\n"), TableError::NoUnit { column, .. } if column == "time")
    );
}

#[test]
fn more_rows_than_the_limit_are_refused_with_the_limit() {
    let mut text = String::with_capacity(8 * MAX_ROWS);
    text.push_str("size_MB,time_s\n");
    for _ in 0..MAX_ROWS {
        text.push_str("1,2\n");
    }
    assert_eq!(read(&text).rows(), MAX_ROWS);
    text.push_str("1,2\n");
    let error = refused(&text);
    assert_eq!(error, TableError::TooManyRows { limit: MAX_ROWS });
    assert!(error.to_string().contains("1000000"), "{error}");
}

#[test]
fn a_missing_column_names_the_fit_that_needs_it() {
    let table = read("size_MB,energy_J\n1,2\n");
    let error = table
        .require(Quantity::Time, "the two-level fit")
        .expect_err("no time column");
    let message = error.to_string();
    for word in ["`time` is missing", "the two-level fit", "time_s"] {
        assert!(message.contains(word), "{message}");
    }
    let error = table
        .require_texts("state", "the power fit")
        .expect_err("no state column");
    assert!(error.to_string().contains("`state`"), "{error}");
    assert_eq!(
        table.require(Quantity::Energy, "x").expect("energy"),
        &[2.0]
    );
}

#[test]
fn a_refusal_is_the_crates_error_at_the_tables_field() {
    let error = refused("size_MB,time_s\n1,x\n").at("measurements");
    assert_eq!(error.field_path(), Some("measurements"));
    let message = error.to_string();
    assert!(
        message.starts_with("measurements: row 2, column `time_s`"),
        "{message}"
    );
    assert!(matches!(error, Error::Field { .. }));
}

/// The measurements of a JSON text.
fn measurements(json: &str) -> Measurements {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn json_rows_and_columns_read_as_the_csv_does() {
    let csv = read("machine,size_MB,time_ms\na,100,10900\nb,200,21800\n");
    let rows = measurements(
        r#"{"rows": [{"machine": "a", "size_MB": 100, "time_ms": 10900},
                     {"machine": "b", "size_MB": "200", "time_ms": 21800}]}"#,
    );
    let columns = measurements(
        r#"{"columns": {"machine": ["a", "b"], "size_MB": [100, 200], "time_ms": [10900, 21800]}}"#,
    );
    let text = measurements(r#"{"csv": "machine,size_MB,time_ms\na,100,10900\nb,200,21800\n"}"#);
    for given in [rows, columns, text] {
        let table = given.table().expect("reads");
        for q in [Quantity::Size, Quantity::Time] {
            assert!(close(&numbers(&table, q), &numbers(&csv, q)), "{given:?}");
        }
        assert_eq!(table.texts("machine"), csv.texts("machine"));
    }
}

#[test]
fn json_refusals_name_the_entry() {
    let cases: [(&str, &[&str]); 5] = [
        (r#"{"rows": []}"#, &["empty"]),
        (
            r#"{"rows": [{"size_MB": 1, "time_s": 2}, {"size_MB": 1, "time_s": "x"}]}"#,
            &["entry [1]", "`time_s`"],
        ),
        (
            r#"{"rows": [{"size_MB": 1, "time_s": 2}, {"size_MB": 1}]}"#,
            &["entry [1]", "size_MB, time_s"],
        ),
        (
            r#"{"columns": {"size_MB": [1, 2], "time_s": [1]}}"#,
            &["`time_s` has 1 values", "has 2"],
        ),
        (
            r#"{"columns": {"size_MB": [1, 2], "time_s": [1, -3]}}"#,
            &["entry [1]", "`time_s`", "-3"],
        ),
    ];
    for (json, words) in cases {
        let message = measurements(json).table().expect_err(json).to_string();
        for word in words {
            assert!(message.contains(word), "{json}: {message:?} lacks {word:?}");
        }
    }
    let unknown = serde_json::from_str::<Measurements>(r#"{"xlsx": "..."}"#);
    assert!(unknown.is_err());
}

#[test]
fn text_columns_keep_strings_and_numbers_their_quantity() {
    let table = read("machine,state,run,application,power_W\nn1,idle,r1,\"md5, 50 MB\",73\n");
    let kinds: Vec<(String, Option<Quantity>)> = table
        .columns
        .iter()
        .map(|c| (c.name.clone(), c.quantity))
        .collect();
    assert_eq!(kinds[4], ("power".to_string(), Some(Quantity::Power)));
    assert!(kinds[..4].iter().all(|(_, q)| q.is_none()));
    assert_eq!(
        table.columns[3].values,
        Values::Texts(vec!["md5, 50 MB".into()])
    );
    let schema = serde_json::to_value(schemars::schema_for!(Measurements)).expect("JSON");
    assert!(schema.to_string().contains("csv"));
}

#[test]
fn a_column_without_a_header_is_skipped_while_it_is_empty() {
    let table = read("size_MB,time_s,\n1,2,\n3,4,\n");
    assert_eq!(table.columns.len(), 2);
    assert_eq!(numbers(&table, Quantity::Time), vec![2.0, 4.0]);
    let two_blank = read("size_MB,,time_s,\n1,,2,\n");
    assert_eq!(numbers(&two_blank, Quantity::Time), vec![2.0]);
    let message = refused("size_MB,time_s,\n1,2,\n3,4,5\n").to_string();
    assert!(
        message.contains("row 3") && message.contains("column 3"),
        "{message}"
    );
}
