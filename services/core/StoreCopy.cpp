#include "StoreCopy.h"

#include "ServiceError.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStringList>

#include <map>
#include <set>

namespace proofdesk::core {
namespace {

[[noreturn]] void refuse(const QString& why) {
    throw ServiceError(ErrorKind::Conflict, "STORE_COPY_REFUSED", why.toStdString());
}

struct TableShape {
    QStringList columns;
    QStringList primaryKey;
    std::set<QString> references; // tables its foreign keys name
};

std::map<QString, TableShape> sqliteTables(Store& from) {
    std::map<QString, TableShape> tables;
    QSqlQuery names = from.exec(QStringLiteral(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND "
        "name <> 'schema_migrations' ORDER BY name"));
    while (names.next()) {
        tables[names.value(0).toString()];
    }
    for (auto& [table, shape] : tables) {
        QSqlQuery columns = from.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table));
        std::map<int, QString> keyParts;
        while (columns.next()) {
            shape.columns << columns.value(1).toString();
            if (const int position = columns.value(5).toInt(); position > 0) {
                keyParts[position] = columns.value(1).toString();
            }
        }
        for (const auto& [position, column] : keyParts) {
            shape.primaryKey << column;
        }
        QSqlQuery keys = from.exec(QStringLiteral("PRAGMA foreign_key_list(%1)").arg(table));
        while (keys.next()) {
            shape.references.insert(keys.value(2).toString());
        }
    }
    return tables;
}

// Tables after the tables their foreign keys name.
QStringList copyOrder(const std::map<QString, TableShape>& tables) {
    QStringList order;
    std::set<QString> placed;
    while (placed.size() < tables.size()) {
        const std::size_t before = placed.size();
        for (const auto& [table, shape] : tables) {
            if (placed.count(table) != 0) {
                continue;
            }
            bool ready = true;
            for (const QString& referenced : shape.references) {
                ready = ready && (referenced == table || placed.count(referenced) != 0 ||
                                  tables.count(referenced) == 0);
            }
            if (ready) {
                order << table;
                placed.insert(table);
            }
        }
        if (placed.size() == before) {
            refuse(QStringLiteral("the source's foreign keys form a cycle"));
        }
    }
    return order;
}

qint64 countOf(Store& store, const QString& table) {
    QSqlQuery count = store.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table));
    return count.next() ? count.value(0).toLongLong() : 0;
}

QString valueText(const QVariant& value) {
    if (value.isNull()) {
        return QStringLiteral("<null>");
    }
    if (value.metaType().id() == QMetaType::QByteArray) {
        return QString::fromLatin1(value.toByteArray().toHex());
    }
    return value.toString();
}

} // namespace

std::vector<TableCopy> copyStore(Store& from, Store& to) {
    if (from.dialect() != StoreDialect::Sqlite || to.dialect() != StoreDialect::Postgres) {
        refuse(QStringLiteral("a copy goes from a data dir's SQLite store to a PostgreSQL store"));
    }
    const std::map<QString, TableShape> tables = sqliteTables(from);
    const QStringList order = copyOrder(tables);
    std::set<QString> destinationTables;
    {
        QSqlQuery names = to.exec(
            QStringLiteral("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                           "current_schema()"));
        while (names.next()) {
            destinationTables.insert(names.value(0).toString());
        }
    }
    for (const QString& table : order) {
        if (destinationTables.count(table) == 0) {
            refuse(QStringLiteral("the destination has no table %1: open it with this version of "
                                  "Proofdesk first")
                       .arg(table));
        }
    }

    std::vector<TableCopy> copied;
    to.write([&](QSqlDatabase& db) {
        copied.clear();
        for (const QString& table : order) {
            if (const qint64 present = countOf(to, table); present > 0) {
                refuse(QStringLiteral("the destination already holds %1 rows of %2: copy into a "
                                      "new database")
                           .arg(present)
                           .arg(table));
            }
            const TableShape& shape = tables.at(table);
            QStringList marks;
            for (qsizetype i = 0; i < shape.columns.size(); ++i) {
                marks << QStringLiteral("?");
            }
            QSqlQuery insert(db);
            if (!insert.prepare(QStringLiteral("INSERT INTO %1 (%2) VALUES (%3)")
                                    .arg(table, shape.columns.join(QStringLiteral(", ")),
                                         marks.join(QStringLiteral(", "))))) {
                refuse(insert.lastError().text());
            }
            QSqlQuery rows = from.exec(QStringLiteral("SELECT %1 FROM %2 ORDER BY rowid")
                                           .arg(shape.columns.join(QStringLiteral(", ")), table));
            TableCopy copy{table, 0, 0};
            while (rows.next()) {
                for (int i = 0; i < shape.columns.size(); ++i) {
                    insert.bindValue(i, rows.value(i));
                }
                if (!insert.exec()) {
                    refuse(QStringLiteral("copying %1: %2").arg(table, insert.lastError().text()));
                }
                ++copy.rows;
            }
            copied.push_back(copy);
        }
        // Identity columns count on from the copied rows.
        QSqlQuery identities = to.exec(QStringLiteral(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND is_identity = 'YES'"));
        std::vector<std::pair<QString, QString>> counters;
        while (identities.next()) {
            counters.emplace_back(identities.value(0).toString(), identities.value(1).toString());
        }
        for (const auto& [table, column] : counters) {
            to.exec(QStringLiteral("SELECT setval(pg_get_serial_sequence('%1', '%2'), "
                                   "GREATEST(COALESCE(MAX(%2), 0), 1), MAX(%2) IS NOT NULL) "
                                   "FROM %1")
                        .arg(table, column));
        }
    });

    // The check, on what the destination committed.
    for (TableCopy& copy : copied) {
        const TableShape& shape = tables.at(copy.table);
        if (countOf(to, copy.table) != copy.rows || countOf(from, copy.table) != copy.rows) {
            refuse(QStringLiteral("%1: the row counts of the two stores differ after the copy")
                       .arg(copy.table));
        }
        if (shape.primaryKey.isEmpty()) {
            continue;
        }
        QStringList keyMatch;
        for (const QString& column : shape.primaryKey) {
            keyMatch << column + QStringLiteral(" = ?");
        }
        const QString columns = shape.columns.join(QStringLiteral(", "));
        for (const char* end : {"ASC", "DESC"}) {
            QSqlQuery sample = from.exec(QStringLiteral("SELECT %1 FROM %2 ORDER BY rowid %3 "
                                                        "LIMIT 5")
                                             .arg(columns, copy.table, QLatin1String(end)));
            while (sample.next()) {
                QVariantList key;
                for (const QString& column : shape.primaryKey) {
                    key << sample.value(int(shape.columns.indexOf(column)));
                }
                QSqlQuery copyRow =
                    to.exec(QStringLiteral("SELECT %1 FROM %2 WHERE %3")
                                .arg(columns, copy.table, keyMatch.join(QStringLiteral(" AND "))),
                            key);
                if (!copyRow.next()) {
                    refuse(QStringLiteral("%1: a sampled row is missing after the copy")
                               .arg(copy.table));
                }
                for (int i = 0; i < shape.columns.size(); ++i) {
                    if (valueText(sample.value(i)) != valueText(copyRow.value(i))) {
                        refuse(QStringLiteral("%1.%2 differs after the copy")
                                   .arg(copy.table, shape.columns[i]));
                    }
                }
                ++copy.sampled;
            }
        }
    }
    return copied;
}

} // namespace proofdesk::core
