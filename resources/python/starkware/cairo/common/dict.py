"""Python-side state of Cairo dictionaries (starkware.cairo.common.dict).

Each dictionary lives in its own segment; a tracker per segment keeps the Python dict and where
the next DictAccess goes.
"""

import collections

from proofdesk_hints import RelocatableValue, TypedReference


class DictTracker:
    def __init__(self, data, current_ptr):
        self.data = data
        self.current_ptr = current_ptr


class DictManager:
    def __init__(self):
        self.trackers = {}

    def new_dict(self, segments, initial_dict):
        base = segments.add()
        if base.segment_index in self.trackers:
            raise ValueError(f"segment {base.segment_index} already has a dictionary")
        self.trackers[base.segment_index] = DictTracker(data=dict(initial_dict),
                                                       current_ptr=base)
        return base

    def new_default_dict(self, segments, default_value, temp_segment=False):
        base = segments.add_temp_segment() if temp_segment else segments.add()
        if base.segment_index in self.trackers:
            raise ValueError(f"segment {base.segment_index} already has a dictionary")
        self.trackers[base.segment_index] = DictTracker(
            data=collections.defaultdict(lambda: default_value), current_ptr=base
        )
        return base

    def get_tracker(self, dict_ptr):
        if isinstance(dict_ptr, TypedReference):  # ids.dict_ptr of type DictAccess*
            dict_ptr = dict_ptr.address_
        if not isinstance(dict_ptr, RelocatableValue):
            raise TypeError(f"a dictionary pointer is an address, not {dict_ptr!r}")
        tracker = self.trackers.get(dict_ptr.segment_index)
        if tracker is None:
            raise ValueError(f"no dictionary in segment {dict_ptr.segment_index}")
        if tracker.current_ptr != dict_ptr:
            raise ValueError(
                f"wrong dictionary pointer: expected {tracker.current_ptr}, got {dict_ptr}"
            )
        return tracker

    def get_dict(self, dict_ptr):
        return self.get_tracker(dict_ptr).data

