"""Who hears of each validation: the pytest plugin's report directory listens here."""

_listeners = []


def add_listener(listener):
    _listeners.append(listener)


def remove_listener(listener):
    _listeners.remove(listener)


def made(validation):
    """Called with every Validation the public functions return."""
    for listener in list(_listeners):
        listener(validation)
    return validation
