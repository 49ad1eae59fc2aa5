// csv_table_test.cc - the CSV reader: quoting, blank lines, and rows that
// do not fit the header, each error naming its line.
#include "csv_table.h"

#include <gtest/gtest.h>

#include "config_error.h"
#include "support.h"

namespace dmasim::sim {
namespace {

TEST(SimCsvTable, QuotedFieldsKeepCommasQuotesAndNewlines) {
    test::TempDir dir;
    const CsvTable t =
        read_csv(dir.write("t.csv", "a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\n\n\"two\nlines\",3\n"));
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(t.rows[0].fields, (std::vector<std::string>{"x,1", "say \"hi\""}));
    EXPECT_EQ(t.rows[1].fields, (std::vector<std::string>{"two\nlines", "3"}));
    // The blank line 3 is skipped; the second row starts on line 4.
    EXPECT_EQ(t.rows[0].line, 2);
    EXPECT_EQ(t.rows[1].line, 4);
    EXPECT_EQ(t.column("b"), 1);
    EXPECT_EQ(t.column("c"), -1);
}

TEST(SimCsvTable, ARowOfAnotherWidthIsRefusedNamingItsLine) {
    test::TempDir dir;
    const std::string path = dir.write("t.csv", "a,b\n1,2\n\"multi\nline\",2,3\n");
    try {
        read_csv(path);
        FAIL() << "accepted";
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()), path + ":3: 3 fields where the header has 2");
    }
}

TEST(SimCsvTable, UnterminatedQuoteAndDuplicateColumnsAreRefused) {
    test::TempDir dir;
    EXPECT_THROW(read_csv(dir.write("t.csv", "a,b\n\"open,2\n")), ConfigError);
    EXPECT_THROW(read_csv(dir.write("t.csv", "a,a\n1,2\n")), ConfigError);
    EXPECT_THROW(read_csv(dir.write("t.csv", "a,,b\n1,2,3\n")), ConfigError);
    EXPECT_THROW(read_csv(dir.write("t.csv", "")), ConfigError);
    EXPECT_THROW(read_csv(dir.path() + "/missing.csv"), ConfigError);
}

}  // namespace
}  // namespace dmasim::sim
