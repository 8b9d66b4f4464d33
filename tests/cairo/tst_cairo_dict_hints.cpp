// The dict hints as squash_dict runs them: one scope, a sequence of hints over a DictAccess
// array, with memory set up directly (no compiler needed).

#include "HintFixture.h"

#include <QTest>

using namespace proofdesk::cairo;
using proofdesk::test::Fixture;

namespace {

const char* kSquashDict =
    "dict_access_size = ids.DictAccess.SIZE\naddress = ids.dict_accesses.address_\nassert "
    "ids.ptr_diff % "
    "dict_access_size == 0, \\\n    'Accesses array size must be divisible by "
    "DictAccess.SIZE'\nn_accesses = "
    "ids.n_accesses\nif '__squash_dict_max_size' in globals():\n    assert n_accesses <= "
    "__squash_dict_max_size, \\\n        f'squash_dict() can only be used with "
    "n_accesses<={__squash_dict_max_size}. ' \\\n        f'Got: n_accesses={n_accesses}.'\n# A map "
    "from key "
    "to the list of indices accessing it.\naccess_indices = {}\nfor i in range(n_accesses):\n    "
    "key = "
    "memory[address + dict_access_size * i]\n    access_indices.setdefault(key, []).append(i)\n# "
    "Descending "
    "list of keys.\nkeys = sorted(access_indices.keys(), reverse=True)\n# Are the keys used bigger "
    "than "
    "range_check bound.\nids.big_keys = 1 if keys[0] >= range_check_builtin.bound else "
    "0\nids.first_key = key "
    "= keys.pop()";
const char* kFirstIteration = "current_access_indices = sorted(access_indices[key])[::-1]\n"
                              "current_access_index = current_access_indices.pop()\n"
                              "memory[ids.range_check_ptr] = current_access_index";

} // namespace

class CairoDictHintsTest : public QObject {
    Q_OBJECT
private slots:
    void squashDictWalksKeysAndAccesses() {
        Fixture f({"dict_accesses", "ptr_diff", "n_accesses", "big_keys", "first_key",
                   "range_check_ptr", "should_skip_loop", "loop_temps", "n_used_accesses",
                   "next_key"},
                  {}, {{"dict_accesses", "DictAccess*"}});
        // Accesses: key 5, key 2, key 5 (key, prev, new).
        const Relocatable accesses = f.memory.addSegment();
        const int keys[] = {5, 2, 5};
        for (int i = 0; i < 3; ++i) {
            f.memory.set(accesses + 3 * i, Felt::fromU64(static_cast<std::uint64_t>(keys[i])));
        }
        const Relocatable rangeChecks = f.memory.addSegment();
        f.set("dict_accesses", accesses);
        f.set("ptr_diff", Felt::fromU64(9));
        f.set("n_accesses", Felt::fromU64(3));
        f.run(kSquashDict);
        QCOMPARE(f.get("first_key"), Felt::fromU64(2));
        QCOMPARE(f.get("big_keys"), Felt::zero());

        f.set("range_check_ptr", rangeChecks);
        f.run(kFirstIteration);
        QCOMPARE(f.memory.get(rangeChecks).felt(), Felt::fromU64(1)); // key 2 is access #1
        f.run("ids.should_skip_loop = 0 if current_access_indices else 1");
        QCOMPARE(f.get("should_skip_loop"), Felt::one());
        f.set("n_used_accesses", Felt::one());
        f.run("assert ids.n_used_accesses == len(access_indices[key])");
        f.run("assert len(keys) > 0, 'No keys left but remaining_accesses > 0.'\nids.next_key = "
              "key = keys.pop()");
        QCOMPARE(f.get("next_key"), Felt::fromU64(5));
    }

    void squashDictLoopsOverOneKeysAccesses() {
        Fixture f({"dict_accesses", "ptr_diff", "n_accesses", "big_keys", "first_key",
                   "range_check_ptr", "should_skip_loop", "loop_temps"},
                  {}, {{"dict_accesses", "DictAccess*"}});
        const Relocatable accesses = f.memory.addSegment();
        for (int i = 0; i < 3; ++i) {
            f.memory.set(accesses + 3 * i, Felt::fromU64(7));
        }
        f.set("dict_accesses", accesses);
        f.set("ptr_diff", Felt::fromU64(9));
        f.set("n_accesses", Felt::fromU64(3));
        f.run(kSquashDict);
        f.set("range_check_ptr", f.memory.addSegment());
        f.run(kFirstIteration);
        f.run("ids.should_skip_loop = 0 if current_access_indices else 1");
        QCOMPARE(f.get("should_skip_loop"), Felt::zero());
        f.run(
            "new_access_index = current_access_indices.pop()\nids.loop_temps.index_delta_minus1 = "
            "new_access_index - current_access_index - 1\ncurrent_access_index = new_access_index");
        QCOMPARE(f.get("loop_temps", 0), Felt::zero()); // 1 - 0 - 1
        f.run("ids.loop_temps.should_continue = 1 if current_access_indices else 0");
        QCOMPARE(f.get("loop_temps", 3), Felt::one());
        f.run(
            "new_access_index = current_access_indices.pop()\nids.loop_temps.index_delta_minus1 = "
            "new_access_index - current_access_index - 1\ncurrent_access_index = new_access_index");
        f.run("assert len(current_access_indices) == 0");
        f.run("assert len(keys) == 0");
    }

    void dictUpdateChecksThePreviousValue() {
        Fixture f({"default_value", "dict_ptr", "key", "prev_value", "new_value"});
        f.set("default_value", Felt::fromU64(0));
        f.run("if '__dict_manager' not in globals():\n    from starkware.cairo.common.dict import "
              "DictManager\n    __dict_manager = DictManager()\n\nmemory[ap] = "
              "__dict_manager.new_default_dict(segments, ids.default_value)");
        const Relocatable dict = f.memory.get(f.vm->ap).address();
        f.set("dict_ptr", dict);
        f.set("key", Felt::fromU64(3));
        f.set("prev_value", Felt::fromU64(9)); // the dict holds the default 0, not 9
        const char* update =
            "# Verify dict pointer and prev value.\ndict_tracker = "
            "__dict_manager.get_tracker(ids.dict_ptr)\ncurrent_value = "
            "dict_tracker.data[ids.key]\nassert current_value == ids.prev_value, \\\n    "
            "f'Wrong previous value in dict. Got {ids.prev_value}, expected "
            "{current_value}.'\n\n# Update value.\ndict_tracker.data[ids.key] = "
            "ids.new_value\ndict_tracker.current_ptr += ids.DictAccess.SIZE";
        f.set("new_value", Felt::fromU64(4));
        QVERIFY_THROWS_EXCEPTION(VmError, f.run(update));
    }
};

int main(int argc, char** argv) {
    return proofdesk::test::execWithNativeThenPythonHints<CairoDictHintsTest>(argc, argv);
}
#include "tst_cairo_dict_hints.moc"
